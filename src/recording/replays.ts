// Recordings played back into READ-ONLY sessions (ACP: Open Recording…). A replay is a pseudo
// agent `recording:<file name>` (status `stopped`, never started, never sent anything) whose
// decoded events go through the same stores as a live agent's (the composition root's apply):
// the Plans tree, the status bar and the conversation show it like any session. Permission
// requests are shown in the conversation as recorded, with the recorded answer; they never reach
// the permission broker (no notification, no rule). Bad lines are reported and skipped.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../common/lifecycle';
import type { SessionEvent } from '../protocol/domain';
import type { PlanStore } from '../state/planStore';
import { sessionKey, type SessionStore } from '../state/sessionStore';
import type { Transcript } from '../state/transcript';
import { replayPipeline, ReplaySink } from './replaySink';
import { describeBadLines, indexRecording, MAX_RECORDING_BYTES, REPLAY_AGENT_PREFIX, type RecordingIndex } from './format';
import type { PlayerState, ReplayPace, ReplayPlayer } from './player';

export { REPLAY_AGENT_PREFIX } from './format';

export interface ReplayDeps {
  store: SessionStore;
  plans: PlanStore;
  transcript: Transcript;
  /** The composition root's path for a live agent's events (all stores, in order). */
  apply(agentId: string, e: SessionEvent): void;
  log: vscode.LogOutputChannel;
}

/** What opening a recording found (also the command's result). */
export interface ReplayInfo {
  readonly agentId: string;
  readonly file: string;
  readonly messages: number;
  readonly badLines: number;
  /** The first few bad lines' numbers. */
  readonly firstBadLines: readonly number[];
}

interface OpenReplay {
  readonly info: ReplayInfo;
  readonly name: string;
  readonly agentName: string | undefined;
  readonly player: ReplayPlayer;
  version: number | undefined;
  activated: boolean;
  notes: number;
  /** The end was reported. */
  finished: boolean;
}

export class Replays extends Disposable {
  private readonly open = new Map<string, OpenReplay>();
  private last: string | undefined;

  constructor(
    private readonly deps: ReplayDeps,
    private readonly changed: (agentId: string) => void,
  ) {
    super();
    this._register(
      toDisposable(() => {
        for (const id of [...this.open.keys()]) this.close(id);
      }),
    );
  }

  has(agentId: string): boolean {
    return this.open.has(agentId);
  }

  /** The replay a command without an argument acts on: the latest one still open. */
  current(agentId?: string): string | undefined {
    if (agentId !== undefined) return this.open.has(agentId) ? agentId : undefined;
    return this.last !== undefined && this.open.has(this.last) ? this.last : [...this.open.keys()].at(-1);
  }

  state(agentId: string): (PlayerState & { name: string }) | undefined {
    const r = this.open.get(agentId);
    return r && { ...r.player.state, name: r.name };
  }

  /** Reads, checks and starts playing `file`; opening the same file again replaces its replay. */
  async openFile(file: string, pace: ReplayPace): Promise<ReplayInfo> {
    const { name, bytes, index } = await readRecording(file);
    const agentId = `${REPLAY_AGENT_PREFIX}${name}`;
    this.close(agentId);
    const bad = describeBadLines(index);
    if (bad) {
      this.deps.log.warn(`[replay ${name}] ${bad}`);
      void vscode.window.showWarningMessage(vscode.l10n.t('{0}: {1} The rest is replayed.', name, bad));
    }
    if (index.messages.length === 0) void vscode.window.showWarningMessage(vscode.l10n.t('{0} holds no recorded ACP messages: nothing to replay.', name));
    const info: ReplayInfo = {
      agentId,
      file,
      messages: index.messages.length,
      badLines: index.bad.length,
      firstBadLines: index.bad.slice(0, 5).map((b) => b.line),
    };
    const r = this.play(info, name, bytes, index, pace);
    this.showAgent(r);
    this.changed(agentId);
    this.deps.log.info(`[replay ${name}] opened ${file}: ${info.messages} messages, pace ${pace}. Nothing is sent to any agent.`);
    r.player.start();
    return info;
  }

  pause(agentId: string): void {
    this.open.get(agentId)?.player.pause();
  }
  resume(agentId: string): void {
    this.open.get(agentId)?.player.resume();
  }
  step(agentId: string): boolean {
    return this.open.get(agentId)?.player.step() ?? false;
  }

  /** Stops the replay and removes its sessions, plans and transcripts. */
  close(agentId: string): boolean {
    const r = this.open.get(agentId);
    if (!r) return false;
    this.open.delete(agentId);
    r.player.dispose();
    const { store, plans, transcript } = this.deps;
    const sessions = new Set([...store.sessions(agentId).map((s) => s.sessionId), ...plans.sessionIds(agentId)]);
    for (const sessionId of sessions) transcript.removeSession(sessionKey(agentId, sessionId));
    plans.clearAgent(agentId);
    store.removeAgent(agentId);
    this.changed(agentId);
    return true;
  }

  // ------------------------------------------------------------------ internals

  /** The replay of `info`, open and the latest, its player not started yet. */
  private play(info: ReplayInfo, name: string, bytes: Buffer, index: RecordingIndex, pace: ReplayPace): OpenReplay {
    const { agentId } = info;
    const schedule = (fn: () => void, ms: number): { dispose(): void } => {
      const t = setTimeout(fn, ms);
      return { dispose: () => clearTimeout(t) };
    };
    const sink = new ReplaySink(agentId, this.deps, {
      connected: (version) => {
        r.version = version;
        this.showAgent(r);
      },
      session: (sessionId) => this.activate(r, sessionId),
      note: (line, text) => {
        r.notes++;
        this.deps.log.warn(`[replay ${r.name}] line ${line}: ${text}`);
      },
    });
    const player = replayPipeline(bytes, index, sink, pace, schedule, () => this.open.get(agentId) === r);
    const r: OpenReplay = {
      info,
      name,
      agentName: typeof index.header?.agent === 'string' ? index.header.agent : undefined,
      player,
      version: undefined,
      activated: false,
      notes: 0,
      finished: false,
    };
    this.open.set(agentId, r);
    this.last = agentId;
    player.onDidChange((s) => {
      this.showAgent(r);
      if (s.done && !r.finished) this.finished(r, sink, s.total);
    });
    return r;
  }

  /** The end of a replay, reported once: in the log, and what the caps dropped also to the user. */
  private finished(r: OpenReplay, sink: ReplaySink, total: number): void {
    r.finished = true;
    this.deps.log.info(`[replay ${r.name}] played ${total} messages${r.notes ? ` (${r.notes} could not be decoded; see the warnings above)` : ''}.`);
    const capped = sink.summary();
    if (capped) {
      this.deps.log.warn(`[replay ${r.name}] ${capped}`);
      void vscode.window.showWarningMessage(vscode.l10n.t('{0}: {1}', r.name, sink.summary(vscode.l10n) ?? capped));
    }
  }

  /** The first session of a replay becomes the active one (the conversation shows it). */
  private activate(r: OpenReplay, sessionId: string): void {
    if (r.activated) return;
    r.activated = true;
    this.deps.store.setActiveSession({ agentId: r.info.agentId, sessionId });
  }

  private showAgent(r: OpenReplay): void {
    const s = r.player.state;
    const progress = s.done ? `replayed ${s.total}` : `replay ${s.position}/${s.total}${s.paused ? ' · paused' : ''}`;
    this.deps.store.setAgent({
      id: r.info.agentId,
      name: `Replay: ${r.name}`,
      status: 'stopped',
      detail: [r.agentName, progress].filter(Boolean).join(' · '),
      ...(r.version === 1 || r.version === 2 ? { protocolVersion: r.version } : {}),
    });
    this.changed(r.info.agentId);
  }
}

/** Reads a recording no larger than MAX_RECORDING_BYTES and indexes its lines. */
async function readRecording(file: string): Promise<{ name: string; bytes: Buffer; index: RecordingIndex }> {
  const name = path.basename(file);
  const size = (await fs.promises.stat(file)).size;
  if (size > MAX_RECORDING_BYTES) {
    throw new Error(
      vscode.l10n.t(
        '{0} is {1} MB; recordings over {2} MB are not opened. Keep the part of the file you need (whole lines) and open that.',
        name,
        (size / 1048576).toFixed(1),
        MAX_RECORDING_BYTES / 1048576,
      ),
    );
  }
  const bytes = await fs.promises.readFile(file);
  return { name, bytes, index: indexRecording(bytes) };
}
