// The commands of traffic recording and replay, from one table. Each takes an optional
// argument (an agent id, a tree node `{agentId}`, a file path or Uri) for menus, tests and
// other extensions, and asks with a quick pick or a file dialog otherwise.
//   acp.recordAgentTraffic (agent?)        on/off per agent → { recording, file, messages? }
//   acp.openRecording (file?, pace?)       plays a `.jsonl`/`.ndjson` recording → ReplayInfo
//   acp.pauseReplay / acp.resumeReplay / acp.stepReplay / acp.closeRecording (replay agent?)
import * as vscode from 'vscode';
import type { ReplayPace } from './player';
import type { Recordings } from './recordings';
import type { ReplayInfo } from './replays';

export interface RecordResult {
  recording: boolean;
  file: string;
  messages?: number;
}

const PACES: readonly ReplayPace[] = ['instant', 'recorded', 'step'];

/** The "Replay how?" rows. */
const paceItems = (): { label: string; detail: string; pace: ReplayPace }[] => [
  { label: vscode.l10n.t('At once'), detail: vscode.l10n.t('Play the whole recording now.'), pace: 'instant' },
  {
    label: vscode.l10n.t('At recorded speed'),
    detail: vscode.l10n.t('As it happened (long pauses shortened to 2 s); pause and step from the status bar.'),
    pace: 'recorded',
  },
  { label: vscode.l10n.t('Step by step'), detail: vscode.l10n.t('One message per Step (status bar or "ACP: Step Replay").'), pace: 'step' },
];

function agentIdOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  const id = (arg as { agentId?: unknown } | undefined)?.agentId;
  return typeof id === 'string' ? id : undefined;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The handlers of RECORDING_COMMANDS (registered by src/ui/lazyCommands.ts, this file loaded on first use). */
export function recordingCommands(r: Recordings, agentList: () => { id: string; name: string }[]): Record<string, (...args: unknown[]) => unknown> {
  return {
    'acp.recordAgentTraffic': (arg) => toggleRecording(r, agentList, arg),
    'acp.openRecording': (arg, paceArg) => openRecording(r, arg, paceArg),
    'acp.pauseReplay': (arg) => {
      const id = replayOf(r, arg);
      if (id) r.replays.pause(id);
      return !!id;
    },
    'acp.resumeReplay': (arg) => {
      const id = replayOf(r, arg);
      if (id) r.replays.resume(id);
      return !!id;
    },
    'acp.stepReplay': (arg) => {
      const id = replayOf(r, arg);
      return id ? r.replays.step(id) : false;
    },
    'acp.closeRecording': (arg) => {
      const id = replayOf(r, arg);
      return id ? r.replays.close(id) : false;
    },
  };
}

/** Starts recording the agent's traffic, or stops it when it is being recorded. */
async function toggleRecording(r: Recordings, agentList: () => { id: string; name: string }[], arg: unknown): Promise<RecordResult | undefined> {
  try {
    const agentId = agentIdOf(arg) ?? (await pickAgent(r, agentList));
    if (!agentId) return undefined;
    if (r.isRecording(agentId)) {
      const s = await r.stop(agentId);
      return s && { recording: false, file: s.file, messages: s.messages };
    }
    return { recording: true, file: r.start(agentId) };
  } catch (err) {
    return fail(err);
  }
}

/** Plays `arg` (a file) at `paceArg`, asking for whichever is missing, and shows the ACP view. */
async function openRecording(r: Recordings, arg: unknown, paceArg: unknown): Promise<ReplayInfo | undefined> {
  try {
    let file = arg instanceof vscode.Uri ? arg.fsPath : typeof arg === 'string' ? arg : undefined;
    if (!file) {
      const picked = await vscode.window.showOpenDialog({
        canSelectMany: false,
        openLabel: vscode.l10n.t('Replay'),
        title: vscode.l10n.t('Open an ACP recording'),
        filters: { [vscode.l10n.t('ACP recordings')]: ['jsonl', 'ndjson'], [vscode.l10n.t('All files')]: ['*'] },
        defaultUri: vscode.Uri.file(r.folder),
      });
      file = picked?.[0]?.fsPath;
      if (!file) return undefined;
    }
    let pace = PACES.find((p) => p === paceArg);
    pace ??= (await vscode.window.showQuickPick(paceItems(), { placeHolder: vscode.l10n.t('Replay how?') }))?.pace;
    if (!pace) return undefined;
    const info = await r.replays.openFile(file, pace);
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    return info;
  } catch (err) {
    return fail(new Error(vscode.l10n.t('Could not open the recording: {0}', errorText(err))));
  }
}

function fail(err: unknown): undefined {
  void vscode.window.showErrorMessage(errorText(err));
  return undefined;
}

async function pickAgent(r: Recordings, agentList: () => { id: string; name: string }[]): Promise<string | undefined> {
  const agents = agentList();
  if (agents.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No agent is configured.'));
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    agents.map((a) => ({
      label: a.name,
      description: r.isRecording(a.id) ? vscode.l10n.t('recording: pick to stop') : '',
      id: a.id,
    })),
    { placeHolder: vscode.l10n.t("Record (or stop recording) which agent's traffic?") },
  );
  return pick?.id;
}

/** The replay a control command acts on: its argument, else the latest open one. */
function replayOf(r: Recordings, arg: unknown): string | undefined {
  const id = r.replays.current(agentIdOf(arg));
  if (!id) void vscode.window.showInformationMessage(vscode.l10n.t('No recording is being replayed. Open one with "ACP: Open Recording…".'));
  return id;
}
