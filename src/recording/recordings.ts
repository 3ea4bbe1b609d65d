// Traffic recording and replay, as the user sees them: which agents are recorded (the tree's
// agent rows read it through AgentMarks), the status bar items ("$(record) Recording <agent>",
// and a replay's pause/resume/step control), and the recordings folder under the extension's
// global storage. Recording itself is recorder.ts (hooked on every connection through `tap`);
// replaying is replays.ts.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentManager } from '../agents/agentManager';
import { Disposable, toDisposable } from '../common/lifecycle';
import type { SessionStore } from '../state/sessionStore';
import { isInitialize } from './format';
import { AgentRecorders, type RecordingSummary, type WireTap } from './recorder';
import type { ReplayDeps, Replays } from './replays';
import { lazyModule } from '../common/lazy';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the recording player, loaded the first time a recording is opened
const replaysModule = lazyModule('recording-replay.js', () => require('./replays') as typeof import('./replays'));

export interface RecordingDeps extends ReplayDeps {
  /** The extension's global storage folder; recordings go to its `recordings` folder. */
  storagePath: string;
  store: SessionStore;
  agents(): AgentManager;
}

export class Recordings extends Disposable {
  private readonly recorders = new AgentRecorders(isInitialize);
  private readonly _onDidChangeMarks = this._register(new vscode.EventEmitter<string>());
  readonly onDidChangeMarks = this._onDidChangeMarks.event;
  private loadedReplays: Replays | undefined;
  private readonly recordingItem: vscode.StatusBarItem;
  private readonly replayItem: vscode.StatusBarItem;
  private readonly stepItem: vscode.StatusBarItem;
  /** Where recordings are written. */
  readonly folder: string;

  constructor(private readonly deps: RecordingDeps) {
    super();
    this.folder = path.join(deps.storagePath, 'recordings');
    this.recordingItem = this._register(vscode.window.createStatusBarItem('acp.recording', vscode.StatusBarAlignment.Left, 49));
    this.recordingItem.name = vscode.l10n.t('ACP Recording');
    this.recordingItem.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
    this.replayItem = this._register(vscode.window.createStatusBarItem('acp.replay', vscode.StatusBarAlignment.Left, 48));
    this.replayItem.name = vscode.l10n.t('ACP Replay');
    this.stepItem = this._register(vscode.window.createStatusBarItem('acp.replay.step', vscode.StatusBarAlignment.Left, 47));
    this.stepItem.name = vscode.l10n.t('ACP Replay Step');
    this._register(toDisposable(() => void this.recorders.stopAll()));
  }

  isRecording(agentId: string): boolean {
    return this.recorders.isRecording(agentId);
  }
  isReplay(agentId: string): boolean {
    return this.loadedReplays?.has(agentId) ?? false;
  }

  /**
   * The replays of recordings. Their decoder and player are loaded the first time a recording is
   * opened (dist/recording-replay.js in the extension bundle, see esbuild.mjs).
   */
  get replays(): Replays {
    this.loadedReplays ??= this._register(new (replaysModule().Replays)(this.deps, (agentId) => this.changed(agentId)));
    return this.loadedReplays;
  }
  /** The file `agentId` is being recorded to. */
  recordingFile(agentId: string): string | undefined {
    return this.recorders.recording(agentId)?.file;
  }

  /** The wire hook of a new connection of `agentId` (AgentManager calls it per connection). */
  tap(agentId: string): WireTap {
    return this.recorders.tap(agentId);
  }

  /** Starts recording `agentId`; returns the file. */
  start(agentId: string): string {
    const sup = this.deps.agents().get(agentId);
    if (!sup) throw new Error(vscode.l10n.t('No agent "{0}" is configured, so there is nothing to record.', agentId));
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = path.join(this.folder, `${agentId.replace(/[^\w.-]+/g, '_').slice(0, 40)}-${stamp}.jsonl`);
    const version = this.deps.store.agent(agentId)?.protocolVersion;
    this.recorders.start(
      agentId,
      file,
      {
        agent: sup.def.name,
        agentId,
        startedAt: new Date().toISOString(),
        redacted: true,
        ...(version ? { protocolVersion: version } : {}),
      },
      sup.connection !== undefined,
      (s) => this.stoppedByItself(agentId, s),
    );
    this.deps.log.info(`[recording] ${sup.def.name}: recording its traffic (redacted) to ${file}`);
    this.changed(agentId);
    return file;
  }

  /** Stops recording `agentId` and tells where the file is (Open / Reveal). */
  async stop(agentId: string): Promise<RecordingSummary | undefined> {
    const s = await this.recorders.stop(agentId);
    this.changed(agentId);
    if (s) this.report(agentId, s);
    return s;
  }

  private stoppedByItself(agentId: string, s: RecordingSummary): void {
    void this.stop(agentId);
    const why = s.error
      ? vscode.l10n.t('writing the file failed ({0})', s.error)
      : vscode.l10n.t('it reached {0} MB, the limit of one recording', Math.round(s.bytes / 1048576));
    void vscode.window.showWarningMessage(vscode.l10n.t('Recording of {0} stopped: {1}. Start a new recording to go on.', this.agentName(agentId), why));
  }

  private report(agentId: string, s: RecordingSummary): void {
    this.deps.log.info(`[recording] Recorded ${s.messages} messages of ${this.agentName(agentId)} (redacted) to ${s.file}.`);
    const text = vscode.l10n.t('Recorded {0} messages of {1} (redacted) to {2}.', s.messages, this.agentName(agentId), s.file);
    const uri = vscode.Uri.file(s.file);
    const open = vscode.l10n.t('Open');
    const reveal = vscode.l10n.t('Reveal');
    void vscode.window.showInformationMessage(text, open, reveal).then((pick) => {
      if (pick === open) void vscode.window.showTextDocument(uri);
      if (pick === reveal) void vscode.commands.executeCommand('revealFileInOS', uri);
    });
  }

  private agentName(agentId: string): string {
    return this.deps.agents().get(agentId)?.def.name ?? agentId;
  }

  private changed(agentId: string): void {
    this._onDidChangeMarks.fire(agentId);
    this.renderStatus();
  }

  private readonly contextValues = new Map<string, boolean>();
  private setContext(key: string, value: boolean): void {
    if (this.contextValues.get(key) === value) return;
    this.contextValues.set(key, value);
    void vscode.commands.executeCommand('setContext', key, value);
  }

  private renderStatus(): void {
    const recording = this.recorders.agentIds();
    const item = this.recordingItem;
    if (recording.length === 0) item.hide();
    else {
      item.text = `$(record) ${
        recording.length === 1 ? vscode.l10n.t('Recording {0}', this.agentName(recording[0])) : vscode.l10n.t('Recording {0} agents', recording.length)
      }`;
      item.tooltip = vscode.l10n.t('Recording ACP traffic (redacted) to {0}. Click to stop.', this.folder);
      item.command = { title: vscode.l10n.t('Stop Recording'), command: 'acp.recordAgentTraffic', arguments: recording.length === 1 ? [recording[0]] : [] };
      item.show();
    }
    const id = this.loadedReplays?.current();
    const s = id === undefined ? undefined : this.loadedReplays?.state(id);
    const active = !!s && !s.done;
    this.setContext('acp.replayActive', active);
    this.setContext('acp.replayPaused', active && s.paused);
    if (!s || s.done) {
      this.replayItem.hide();
      this.stepItem.hide();
      return;
    }
    this.replayItem.text = `${s.paused ? '$(debug-continue)' : '$(debug-pause)'} ${vscode.l10n.t('Replay {0}/{1}', s.position, s.total)}`;
    this.replayItem.tooltip = s.paused ? vscode.l10n.t('{0}: paused. Click to resume.', s.name) : vscode.l10n.t('{0}: playing. Click to pause.', s.name);
    this.replayItem.command = {
      title: s.paused ? vscode.l10n.t('Resume Replay') : vscode.l10n.t('Pause Replay'),
      command: s.paused ? 'acp.resumeReplay' : 'acp.pauseReplay',
      arguments: [id],
    };
    this.replayItem.show();
    if (s.paused) {
      this.stepItem.text = `$(debug-step-over) ${vscode.l10n.t('Step')}`;
      this.stepItem.tooltip = vscode.l10n.t('{0}: play the next recorded message.', s.name);
      this.stepItem.command = { title: vscode.l10n.t('Step Replay'), command: 'acp.stepReplay', arguments: [id] };
      this.stepItem.show();
    } else {
      this.stepItem.hide();
    }
  }
}
