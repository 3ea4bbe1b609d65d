// Supervises one agent's process and connection: spawn → initialize (version negotiation) →
// running; graceful stop; crash → a clear report and an automatic restart with backoff (at most
// RESTART_LIMIT in RESTART_WINDOW_MS), after which the sessions it served are resumed. It keeps
// only what a connection needs (which sessions to re-attach, which turns are in flight); the
// session state people see lives in the SessionStore, fed from `host.lifecycle` and `host.onEvent`.
// Free of `vscode` (unit-tested in plain Node).
import type { AcpConnection, AgentStatus, ConnectOptions, McpServerConfig } from '../protocol/api';
import type { ConfigOption, ContentBlock, SessionEvent } from '../protocol/domain';
import { randomUUID } from 'crypto';
import { DisposableStore, toDisposable } from '../common/lifecycle';
import { ConnectionClosedError, isAuthRequired } from '../protocol/connect';
import { describeExit, exitTail, type ExitInfo } from './agentProcess';
import type { AgentDefinition } from './agentConfig';
import type { SupervisedProcess, SupervisorHost } from './supervisorHost';
import { SessionGate } from './sessionGate';
import { UnansweredPrompts } from './unansweredPrompts';

export type { LifecycleEvent, SupervisedProcess, SupervisorHost } from './supervisorHost';

export const RESTART_LIMIT = 4;
export const RESTART_WINDOW_MS = 3 * 60_000;
/** Delay before the n-th restart in the window (n = 1…RESTART_LIMIT): 250 ms, 500 ms, 1 s, 2 s. */
export const restartDelayMs = (n: number): number => 250 * 2 ** (n - 1);

/** What re-attaching a session needs. */
interface AttachedSession {
  sessionId: string;
  cwd: string;
  additionalDirectories: string[];
  mcpServers: McpServerConfig[];
}

/** Events replayed by `session/load` after a restart duplicate what the transcript already has. */
const REPLAYED_KINDS = new Set<SessionEvent['kind']>([
  'message_chunk',
  'message',
  'session_message',
  'session_message_chunk',
  'tool_call',
  'tool_call_content_chunk',
  'terminal_update',
  'terminal_output_chunk',
]);

export class AgentSupervisor {
  private _status: AgentStatus = 'stopped';
  private _lastError: string | undefined;
  private _connection: AcpConnection | undefined;
  private proc: SupervisedProcess | undefined;
  /** Connection scope: cleared on every stop, crash and restart. */
  private readonly scope = new DisposableStore();
  /** Sessions served by the current connection. */
  private readonly attached = new Map<string, AttachedSession>();
  /** Sessions served before the connection ended, to resume on the next one. */
  private readonly detached = new Map<string, AttachedSession>();
  /** Turns in flight per session (one per prompt sent, or a `running` state) until idle with a stopReason
   *  (v1: from the prompt response; v2 answers on acceptance) or a refusal; counted for overlapping prompts. */
  private readonly turns = new Map<string, number>();
  /** Sessions whose replayed messages are dropped (until the resume answers or `replay_complete`). */
  private readonly muted = new Set<string>();
  /** Prompts not answered yet: sent again (v2, same idempotency key) if the agent dies first. */
  private readonly unanswered = new UnansweredPrompts();
  /** The sessions this connection may speak for (updates for others are dropped and reported). */
  private readonly gate = new SessionGate((m) => this.host.logger(this.definition).log('warn', `${this.definition.name}: ${m}`));
  private restarts: number[] = [];
  /** Set when the sessions must be resumed once the agent runs again (crash, restart). */
  private resumePending = false;
  /** Sessions are being resumed on the new connection (one at a time). */
  private resuming = false;
  private stopping = false;
  private starting: Promise<void> | undefined;
  private disposed = false;

  constructor(
    private definition: AgentDefinition,
    private readonly host: SupervisorHost,
  ) {}

  get def(): AgentDefinition {
    return this.definition;
  }
  get id(): string {
    return this.definition.id;
  }
  get status(): AgentStatus {
    return this._status;
  }
  /** The last failure, as a sentence ("Demo Agent exited with code 3 during a turn."). */
  get lastError(): string | undefined {
    return this._lastError;
  }
  get connection(): AcpConnection | undefined {
    return this._connection;
  }
  get version(): 1 | 2 | undefined {
    return this._connection?.version;
  }
  /** Sessions this agent serves, and those it served before it stopped (to resume). */
  get sessionIds(): string[] {
    return [...this.attached.keys(), ...this.detached.keys()];
  }
  /** The folders a session works in (its cwd, then the extra folders it was opened with). */
  roots(sessionId: string): string[] {
    const s = this.attached.get(sessionId) ?? this.detached.get(sessionId);
    return s ? [s.cwd, ...s.additionalDirectories] : [];
  }
  isAttached(sessionId: string): boolean {
    return this.attached.has(sessionId);
  }
  busy(sessionId: string): boolean {
    return (this.turns.get(sessionId) ?? 0) > 0;
  }

  /** New settings for a stopped agent (used from its next start). */
  redefine(def: AgentDefinition): void {
    this.definition = def;
  }

  start(): Promise<void> {
    if (this._status === 'running') return Promise.resolve();
    this.starting ??= this.launch().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.setStatus('stopping');
    const proc = this.proc;
    this.dropConnection();
    this.unanswered.clear(); // stopped on purpose: nothing is sent again
    if (proc) await proc.stop();
    this.proc = undefined;
    this.resumePending = false;
    this.setStatus('stopped');
    this.stopping = false;
  }

  /** Stops and starts again, then resumes the sessions. Refused (before stopping) where no agent may start. */
  async restart(): Promise<void> {
    this.host.assertMayStart();
    if (this._status !== 'stopped') await this.stop();
    this.restarts = [];
    this._lastError = undefined;
    this.resumePending = this.detached.size > 0;
    await this.start();
  }

  dispose(): void {
    this.disposed = true;
    this.stopping = true;
    this.scope.dispose();
    this._connection = undefined;
    this.proc?.kill();
  }

  /**
   * Opens a session in `cwd`. Extra folders and MCP servers are passed only where the agent says
   * it supports them (others are left out, never sent to an agent that can't use them).
   */
  async newSession(cwd: string, extras: { additionalDirectories?: string[]; mcpServers?: McpServerConfig[] } = {}): Promise<string> {
    const conn = await this.ready();
    const s = this.sessionParams(conn, '', cwd, extras);
    this.gate.creatingStarted();
    let setup: Awaited<ReturnType<AcpConnection['newSession']>> | undefined;
    try {
      setup = await conn.newSession({ cwd, additionalDirectories: s.additionalDirectories, mcpServers: s.mcpServers });
    } finally {
      const held = this.gate.creatingEnded(setup?.sessionId);
      if (setup && this._connection === conn) {
        s.sessionId = setup.sessionId;
        this.attach(s);
        for (const e of held) this.onEvent(e);
      }
    }
    if (setup.configOptions) this.emit({ sessionId: s.sessionId, kind: 'config_options', options: setup.configOptions });
    if (setup.commands) this.emit({ sessionId: s.sessionId, kind: 'commands', commands: setup.commands });
    return setup.sessionId;
  }

  /**
   * Opens a session the agent already has (from `session/list`). A session this client already
   * shows keeps its transcript: the replay's messages would duplicate it (plans replay
   * harmlessly: an identical plan is not a new version).
   */
  async resumeExisting(sessionId: string, cwd: string, known: boolean): Promise<void> {
    const conn = await this.ready();
    const s = this.sessionParams(conn, sessionId, cwd, {});
    if (known) this.muted.add(sessionId);
    this.gate.allow(sessionId);
    try {
      await conn
        .resumeSession({
          sessionId,
          cwd,
          additionalDirectories: s.additionalDirectories,
          mcpServers: s.mcpServers,
          replay: !known || !conn.capabilities.resume,
        })
        .then((setup) => {
          if (setup.configOptions) this.emit({ sessionId, kind: 'config_options', options: setup.configOptions });
        });
      this.attach(s);
    } catch (err) {
      if (!this.attached.has(sessionId)) this.gate.forget(sessionId);
      throw err;
    } finally {
      this.muted.delete(sessionId);
    }
  }

  async closeSession(sessionId: string): Promise<void> {
    this.detached.delete(sessionId);
    this.unanswered.forget(sessionId);
    if (!this.attached.has(sessionId)) return;
    this.cancel(sessionId);
    this.attached.delete(sessionId);
    this.host.lifecycle(this.id, { kind: 'session_detached', sessionId });
    if (this._connection?.capabilities.close) await this._connection.closeSession(sessionId);
  }

  async deleteSession(sessionId: string): Promise<void> {
    const conn = await this.ready();
    if (!conn.capabilities.delete) throw new Error(`${this.def.name} does not support deleting sessions.`);
    await conn.deleteSession(sessionId);
    this.attached.delete(sessionId);
    this.detached.delete(sessionId);
    this.host.lifecycle(this.id, { kind: 'session_deleted', sessionId });
  }

  async setConfigOption(sessionId: string, configId: string, value: string | boolean): Promise<ConfigOption[]> {
    const conn = await this.ready();
    const options = await conn.setConfigOption(sessionId, configId, value);
    this.emit({ sessionId, kind: 'config_options', options });
    return options;
  }

  /** The session was detached by a crash and is resumed once the agent is back (prompts for it wait). */
  willResume(sessionId: string): boolean {
    return this.detached.has(sessionId) && (this.resumePending || this.resuming || this._status === 'restarting');
  }

  /**
   * Sends a prompt now (the caller queues while a turn runs) with an idempotency key (v2; pass the
   * same key to retry the same prompt). A refused prompt ends the turn with a notice; the promise
   * rejects only for `auth_required` (the caller offers sign-in). A crash before the answer is
   * reported by the exit handling, and on v2 the prompt is sent again once the session resumes.
   */
  prompt(sessionId: string, blocks: readonly ContentBlock[], key: string = randomUUID()): Promise<void> {
    const conn = this._connection;
    if (!conn || this._status !== 'running' || !this.attached.has(sessionId)) {
      throw new Error(
        this.willResume(sessionId)
          ? `${this.def.name} is restarting; the session is resumed in a moment. Send the prompt again then.`
          : this._status !== 'running'
            ? `${this.def.name} is not running (${this._status}). Start it first.`
            : 'This session ended when the agent stopped and could not be resumed. Start a new session.',
      );
    }
    this.countTurn(sessionId, +1); // before sending: the v1 adapter reports `running` as it sends
    const sent = this.unanswered.add({ sessionId, blocks, key, version: conn.version });
    return conn.prompt(sessionId, [...blocks], { idempotencyKey: key }).then(
      () => this.unanswered.answered(sent),
      (err: unknown) => {
        // The agent died (the pipe closes before the exit is seen): the crash is reported by onExit.
        if (this._connection !== conn || err instanceof ConnectionClosedError) return;
        this.unanswered.answered(sent);
        this.countTurn(sessionId, -1);
        this.emit({
          sessionId,
          kind: 'notice',
          severity: 'error',
          title: isAuthRequired(err)
            ? `${this.def.name} asks you to sign in before it takes prompts. Sign in, and the prompt is sent again.`
            : `The agent refused the prompt: ${err instanceof Error ? err.message : String(err)}`,
        });
        this.emit({ sessionId, kind: 'state', state: 'idle', stopReason: 'error' });
        if (isAuthRequired(err)) throw err;
      },
    );
  }

  cancel(sessionId: string): void {
    if (this.busy(sessionId)) this._connection?.cancel(sessionId);
  }

  private emit(e: SessionEvent): void {
    this.host.onEvent(this.id, e);
  }

  /** Called for every event of this agent, in order. */
  private onEvent(e: SessionEvent): void {
    if (!this.gate.admit(e)) return;
    if (e.kind === 'replay_complete') this.muted.delete(e.sessionId); // what follows is live
    if (this.muted.has(e.sessionId) && REPLAYED_KINDS.has(e.kind)) return;
    if (e.kind === 'state') {
      if (e.state === 'idle' && e.stopReason != null) this.countTurn(e.sessionId, -1);
      else if ((e.state === 'running' || e.state === 'requires_action') && !this.busy(e.sessionId)) this.countTurn(e.sessionId, +1);
    }
    this.emit(e);
  }

  private countTurn(sessionId: string, delta: 1 | -1): void {
    const n = Math.max(0, (this.turns.get(sessionId) ?? 0) + delta);
    if (n) this.turns.set(sessionId, n);
    else this.turns.delete(sessionId);
  }

  private sessionParams(
    conn: AcpConnection,
    sessionId: string,
    cwd: string,
    extras: { additionalDirectories?: string[]; mcpServers?: McpServerConfig[] },
  ): AttachedSession {
    const caps = conn.capabilities;
    const prev = this.attached.get(sessionId) ?? this.detached.get(sessionId);
    return {
      sessionId,
      cwd,
      additionalDirectories: caps.additionalDirectories ? (extras.additionalDirectories ?? prev?.additionalDirectories ?? []) : [],
      mcpServers: (extras.mcpServers ?? prev?.mcpServers ?? []).filter((m) => caps.mcp[m.type]),
    };
  }

  private attach(s: AttachedSession): void {
    this.serve(s);
    this.announce(s);
  }

  /** This connection speaks for the session (prompts may be sent on it). */
  private serve(s: AttachedSession): void {
    this.gate.allow(s.sessionId);
    this.detached.delete(s.sessionId);
    this.attached.set(s.sessionId, s);
  }

  private announce(s: AttachedSession): void {
    this.host.lifecycle(this.id, { kind: 'session_attached', sessionId: s.sessionId, cwd: s.cwd });
  }

  private async ready(): Promise<AcpConnection> {
    if (this._status !== 'running') await this.start();
    if (!this._connection) throw new Error(`${this.def.name} is not running${this._lastError ? `: ${this._lastError}` : '.'}`);
    return this._connection;
  }

  private async launch(): Promise<void> {
    // Every path that spawns (start, restart, a command that needs the agent) passes here.
    this.host.assertMayStart();
    this.setStatus('starting');
    const proc = this.host.spawn(this.host.spawnSpec(this.def), (line) => this.host.stderr(this.def, line));
    this.proc = proc;
    void proc.exited.then((info) => this.onExit(proc, info));
    // When the pipe closes, pending prompts fail (v1: idle/error) before the exit is seen; the
    // exit handling ends those turns (agent_exited), so turn states from then on are dropped.
    let open = true;
    try {
      const conn = await this.connectTo(proc, (e) => {
        if (open || e.kind !== 'state') this.onEvent(e);
      });
      if (this.proc !== proc) {
        conn.dispose();
        return;
      }
      this._connection = conn;
      this.scope.add(
        conn.onClose(() => {
          open = false;
        }),
      );
      this.scope.add(toDisposable(() => conn.dispose()));
      this._lastError = undefined;
      this.setStatus('running');
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this._lastError = message;
      if (this.proc === proc) {
        this.proc = undefined;
        void proc.stop(500);
      }
      this.resumePending = false; // nothing resumes now: prompts are not queued for it (willResume); Restart resumes
      this.setStatus('failed', message);
      throw new Error(message);
    }
    if (this.resumePending) await this.resumeSessions();
  }

  /** Connects over the process's stdio; an exit before `initialize` is answered rejects with how it ended. */
  private connectTo(proc: SupervisedProcess, onEvent: (e: SessionEvent) => void): Promise<AcpConnection> {
    const options: ConnectOptions = {
      ...this.host.connectOptions(this.def),
      protocol: this.def.protocol,
      logger: this.host.logger(this.def),
      handlers: {
        ...this.gate.guard(this.host.services(this.id)),
        onEvent,
        // Never put to the user for a session this agent did not open or resume here.
        requestPermission: (req, token) => (this.gate.has(req.sessionId) ? this.host.requestPermission(this.id, req, token) : this.gate.refuse(req.sessionId)),
      },
    };
    const { elicit, elicitationComplete } = this.host;
    if (elicit) {
      // The same rule for session-scoped elicitations; request-scoped ones belong to this connection.
      options.handlers.elicit = (req, token) =>
        req.scope.type === 'session' && !this.gate.has(req.scope.sessionId)
          ? this.gate.refuse(req.scope.sessionId).then(() => ({ action: 'cancel' as const }))
          : elicit.call(this.host, this.id, req, token);
      options.handlers.onElicitationComplete = (id) => elicitationComplete?.call(this.host, this.id, id);
    }
    const exitedError = (info: ExitInfo): Error =>
      new Error(`${this.def.name} ${describeExit(info, this.def.command)}${info.spawnError ? '' : ' during initialize'}.${exitTail(info)}`);
    const connecting = this.host.connect(proc.stdout, proc.stdin, options).catch(async (err: unknown) => {
      // Its stdout closes before the exit is seen: say how it ended (code, last output), not "connection closed".
      if (!(err instanceof ConnectionClosedError)) throw err;
      void proc.stop(500); // one that closed its stdout but runs on is stopped
      throw exitedError(await proc.exited);
    });
    return Promise.race([
      connecting,
      proc.exited.then((info) => {
        throw exitedError(info);
      }),
    ]);
  }

  private onExit(proc: SupervisedProcess, info: ExitInfo): void {
    if (this.proc !== proc || this.stopping || this.disposed) return;
    const wasRunning = this._status === 'running';
    this.proc = undefined;
    const busy = [...this.turns.keys()];
    this.dropConnection();
    if (!wasRunning) return; // failures during start are reported by launch()
    this._lastError = `${this.def.name} ${describeExit(info, this.def.command)} ${busy.length ? 'during a turn' : 'while idle'}.${exitTail(info)}`;
    for (const sessionId of busy) {
      this.emit({ sessionId, kind: 'notice', severity: 'error', title: `${this.def.name} ${describeExit(info, this.def.command)}; the turn was interrupted.` });
      this.emit({ sessionId, kind: 'state', state: 'idle', stopReason: 'agent_exited' });
    }
    const now = this.host.now();
    this.restarts = this.restarts.filter((t) => now - t < RESTART_WINDOW_MS);
    if (this.restarts.length >= RESTART_LIMIT) {
      this.resumePending = false;
      this.setStatus('crashed', this._lastError);
      this.host.report(
        this.id,
        `${this._lastError} It stopped ${RESTART_LIMIT + 1} times in 3 minutes, so it is not restarted again. Show Log has its output; Restart tries again.`,
        'error',
      );
      return;
    }
    this.restarts.push(now);
    this.resumePending = this.detached.size > 0;
    this.setStatus('restarting', this._lastError);
    this.host.report(this.id, `${this._lastError} Restarting…`, 'warning');
    this.scope.add(
      this.host.schedule(() => {
        if (this.disposed || this.stopping || this._status !== 'restarting') return;
        this.start().catch((err: unknown) => {
          this.host.report(this.id, `${this.def.name} could not be restarted: ${err instanceof Error ? err.message : String(err)}`, 'error');
        });
      }, restartDelayMs(this.restarts.length)),
    );
  }

  /** The connection scope ends: turns in flight and mutes are forgotten, every session detached. */
  private dropConnection(): void {
    this.scope.clear();
    this._connection = undefined;
    this.turns.clear();
    this.muted.clear();
    this.gate.reset();
    for (const [sessionId, s] of this.attached) {
      this.detached.set(sessionId, s);
      this.host.lifecycle(this.id, { kind: 'session_detached', sessionId });
    }
    this.attached.clear();
  }

  /** Resumes every known session on the new connection; the transcript and plans stay as they are. */
  private async resumeSessions(): Promise<void> {
    this.resumePending = false;
    const conn = this._connection;
    if (!conn) return;
    this.resuming = true;
    try {
      await this.resumeEach(conn);
    } finally {
      this.resuming = false;
    }
  }

  private async resumeEach(conn: AcpConnection): Promise<void> {
    const caps = conn.capabilities;
    for (const s of [...this.detached.values()]) {
      if (!caps.resume && !caps.loadSession) {
        this.detached.delete(s.sessionId);
        this.host.lifecycle(this.id, { kind: 'session_detached', sessionId: s.sessionId, ended: `${this.def.name} cannot resume sessions` });
        this.emit({
          sessionId: s.sessionId,
          kind: 'notice',
          severity: 'warning',
          title: `${this.def.name} cannot resume sessions; this conversation is kept read-only. Start a new session to continue.`,
        });
        continue;
      }
      const replay = !caps.resume;
      if (replay) this.muted.add(s.sessionId);
      try {
        this.gate.allow(s.sessionId);
        await conn.resumeSession({ sessionId: s.sessionId, cwd: s.cwd, additionalDirectories: s.additionalDirectories, mcpServers: s.mcpServers, replay });
        if (this._connection !== conn) return;
        // The prompt the agent never answered goes first: its turn runs before the session is
        // announced, so the caller queues any other prompt until that turn ends.
        this.serve(s);
        this.emit({ sessionId: s.sessionId, kind: 'notice', severity: 'info', title: 'Session resumed after the agent restarted.' });
        this.retryUnanswered(s.sessionId, conn.version);
        this.announce(s);
      } catch (err) {
        this.detached.delete(s.sessionId);
        this.unanswered.forget(s.sessionId);
        this.gate.forget(s.sessionId);
        this.host.lifecycle(this.id, { kind: 'session_detached', sessionId: s.sessionId, ended: 'the session could not be resumed' });
        this.emit({
          sessionId: s.sessionId,
          kind: 'notice',
          severity: 'warning',
          title: `The session could not be resumed (${err instanceof Error ? err.message : String(err)}); its transcript and plans are kept.`,
        });
      } finally {
        this.muted.delete(s.sessionId);
      }
    }
  }

  /**
   * v2: prompts the agent never answered before it died are sent again with their keys (they run
   * once). Each is a running turn from now on (as for a prompt the user sends), until it ends.
   */
  private retryUnanswered(sessionId: string, version: 1 | 2): void {
    for (const p of this.unanswered.takeRetriable(sessionId, version)) {
      try {
        this.prompt(sessionId, p.blocks, p.key).catch(() => undefined);
      } catch {
        continue; /* not attached any more: nothing to retry on */
      }
      this.emit({ sessionId, kind: 'state', state: 'running' });
      this.emit({
        sessionId,
        kind: 'notice',
        severity: 'info',
        title: 'The prompt the agent had not answered was sent again (same idempotency key: it runs once).',
      });
    }
  }

  private setStatus(status: AgentStatus, detail?: string): void {
    if (this._status === status && detail === undefined) return;
    this._status = status;
    this.host.lifecycle(this.id, {
      kind: 'status',
      status,
      ...(detail !== undefined ? { detail } : {}),
      ...(this._connection ? { protocolVersion: this._connection.version } : {}),
    });
  }
}
