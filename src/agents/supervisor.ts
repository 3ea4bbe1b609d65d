// Supervises one agent's endpoint and connection: open → initialize (version negotiation) →
// running; graceful stop; the endpoint ends unexpectedly (crash, dropped connection) → a clear
// report and a restart with backoff (supervisorRestarts.ts), then the sessions it served are
// resumed (supervisorResume.ts). Where the agent runs (a process, a remote socket) is the
// endpoint's business (agentEndpoint.ts; the host opens one per run). It keeps only what a
// connection needs (supervisorSessions.ts); the session state people see lives in the
// SessionStore, fed from `host.lifecycle` and `host.onEvent`.
// Free of `vscode` (unit-tested in plain Node).
import type { AcpConnection, AgentStatus, McpServerConfig } from '../protocol/api';
import type { ConfigOption, ContentBlock, SessionEvent } from '../protocol/domain';
import { randomUUID } from 'crypto';
import { DisposableStore, toDisposable } from '../common/lifecycle';
import { ConnectionClosedError } from '../protocol/connectionErrors';
import { isAuthRequired } from '../protocol/transport/rpcError';
import type { AgentEndpoint, EndpointExit } from './agentEndpoint';
import type { AgentDefinition } from './agentConfig';
import type { SupervisorHost } from './supervisorHost';
import { connectEndpoint, drained, endedWhileRunning, isPermanentFailure } from './supervisorConnect';
import { resumeDetached, type ResumeHost } from './supervisorResume';
import { SupervisedSessions, createSession, type AttachedSession } from './supervisorSessions';
import { GIVE_UP, RestartBudget } from './supervisorRestarts';

export type { AgentEndpoint, EndpointExit } from './agentEndpoint';
export type { LifecycleEvent, SupervisorHost } from './supervisorHost';
export { RESTART_LIMIT, RESTART_WINDOW_MS, restartDelayMs } from './supervisorRestarts';

export class AgentSupervisor {
  private _status: AgentStatus = 'stopped';
  private _lastError: string | undefined;
  private _connection: AcpConnection | undefined;
  private endpoint: AgentEndpoint | undefined;
  /** Connection scope: cleared on every stop, crash and restart. */
  private readonly scope = new DisposableStore();
  /** The sessions served, to resume, their turns in flight and the gate. */
  private readonly sessions = new SupervisedSessions((m) => this.host.logger(this.definition).log('warn', `${this.definition.name}: ${m}`));
  private readonly restarts = new RestartBudget();
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
    return this.sessions.ids;
  }
  /** The folders a session works in (its cwd, then the extra folders it was opened with). */
  roots(sessionId: string): string[] {
    const s = this.sessions.find(sessionId);
    return s ? [s.cwd, ...s.additionalDirectories] : [];
  }
  isAttached(sessionId: string): boolean {
    return this.sessions.attached.has(sessionId);
  }
  busy(sessionId: string): boolean {
    return this.sessions.busy(sessionId);
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
    const endpoint = this.endpoint;
    this.dropConnection();
    this.sessions.unanswered.clear(); // stopped on purpose: nothing is sent again
    if (endpoint) await endpoint.stop();
    this.endpoint = undefined;
    this.resumePending = false;
    this.setStatus('stopped');
    this.stopping = false;
  }

  /** Stops and starts again, then resumes the sessions. Refused (before stopping) where no agent may start. */
  async restart(): Promise<void> {
    this.host.assertMayStart();
    if (this._status !== 'stopped') await this.stop();
    this.restarts.reset();
    this._lastError = undefined;
    this.resumePending = this.sessions.detached.size > 0;
    await this.start();
  }

  dispose(): void {
    this.disposed = true;
    this.stopping = true;
    this.scope.dispose();
    this._connection = undefined;
    this.endpoint?.kill();
  }

  /**
   * Opens a session in `cwd`. Extra folders and MCP servers are passed only where the agent says
   * it supports them (others are left out, never sent to an agent that can't use them).
   */
  async newSession(cwd: string, extras: { additionalDirectories?: string[]; mcpServers?: McpServerConfig[]; forkOf?: string } = {}): Promise<string> {
    const conn = await this.ready();
    const s = this.sessions.params(conn, '', cwd, extras);
    this.sessions.gate.creatingStarted();
    let setup: Awaited<ReturnType<AcpConnection['newSession']>> | undefined;
    try {
      setup = await createSession(conn, s, extras.forkOf);
    } finally {
      const held = this.sessions.gate.creatingEnded(setup?.sessionId);
      if (setup && this._connection === conn) {
        s.sessionId = setup.sessionId;
        this.attach(s);
        for (const e of held) if (this.sessions.admit(e)) this.emit(e);
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
    const s = this.sessions.params(conn, sessionId, cwd, {});
    if (known) this.sessions.muted.add(sessionId);
    this.sessions.gate.allow(sessionId);
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
      if (!this.sessions.attached.has(sessionId)) this.sessions.gate.forget(sessionId);
      throw err;
    } finally {
      this.sessions.muted.delete(sessionId);
    }
  }

  /** Closes the session: from now on nothing the agent sends for it is shown or served, until the user resumes it. */
  async closeSession(sessionId: string): Promise<void> {
    const attached = this.sessions.attached.has(sessionId);
    if (attached) this.cancel(sessionId);
    this.sessions.close(sessionId);
    if (!attached) return;
    this.host.lifecycle(this.id, { kind: 'session_detached', sessionId });
    if (this._connection?.capabilities.close) await this._connection.closeSession(sessionId);
  }

  async deleteSession(sessionId: string): Promise<void> {
    const conn = await this.ready();
    if (!conn.capabilities.delete) throw new Error(`${this.def.name} does not support deleting sessions.`);
    await conn.deleteSession(sessionId);
    this.sessions.close(sessionId);
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
    return this.sessions.detached.has(sessionId) && (this.resumePending || this.resuming || this._status === 'restarting');
  }

  /**
   * Sends a prompt now (the caller queues while a turn runs) with an idempotency key (v2; pass the
   * same key to retry the same prompt). A refused prompt ends the turn with a notice; the promise
   * rejects only for `auth_required` (the caller offers sign-in). A crash before the answer is
   * reported by the exit handling, and on v2 the prompt is sent again once the session resumes.
   */
  prompt(sessionId: string, blocks: readonly ContentBlock[], key: string = randomUUID()): Promise<void> {
    const conn = this._connection;
    if (!conn || this._status !== 'running' || !this.sessions.attached.has(sessionId)) {
      throw new Error(
        this.willResume(sessionId)
          ? `${this.def.name} is restarting; the session is resumed in a moment. Send the prompt again then.`
          : this._status !== 'running'
            ? `${this.def.name} is not running (${this._status}). Start it first.`
            : 'This session ended when the agent stopped and could not be resumed. Start a new session.',
      );
    }
    this.sessions.countTurn(sessionId, +1); // before sending: the v1 adapter reports `running` as it sends
    const sent = this.sessions.unanswered.add({ sessionId, blocks, key, version: conn.version });
    return conn.prompt(sessionId, [...blocks], { idempotencyKey: key }).then(
      () => this.sessions.unanswered.answered(sent),
      (err: unknown) => {
        // The agent died (the stream closes before the end is seen): the crash is reported by onEnded.
        if (this._connection !== conn || err instanceof ConnectionClosedError) return;
        this.sessions.unanswered.answered(sent);
        this.sessions.countTurn(sessionId, -1);
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

  private attach(s: AttachedSession): void {
    this.sessions.serve(s);
    this.host.lifecycle(this.id, { kind: 'session_attached', sessionId: s.sessionId, cwd: s.cwd });
  }

  private async ready(): Promise<AcpConnection> {
    if (this._status !== 'running') await this.start();
    if (!this._connection) throw new Error(`${this.def.name} is not running${this._lastError ? `: ${this._lastError}` : '.'}`);
    return this._connection;
  }

  private async launch(): Promise<void> {
    // Every path that opens an endpoint (start, restart, a command that needs the agent) passes here.
    this.host.assertMayStart();
    const restarting = this._status === 'restarting';
    this.setStatus('starting');
    const endpoint = this.host.openEndpoint(this.def);
    this.endpoint = endpoint;
    // What the agent wrote before it ended is handled first (the reader works in slices): its last
    // plan update must not be lost because the end was seen before the lines were.
    void endpoint.closed.then((exit) => drained(this.endpoint === endpoint ? this._connection : undefined).then(() => this.onEnded(endpoint, exit)));
    // When the stream closes, pending prompts fail (v1: idle/error) before the end is seen; the
    // end handling ends those turns (agent_exited), so turn states from then on are dropped.
    let open = true;
    try {
      const conn = await connectEndpoint(endpoint, {
        host: this.host,
        def: this.def,
        gate: this.sessions.gate,
        onEvent: (e) => {
          if ((open || e.kind !== 'state') && this.sessions.admit(e)) this.emit(e);
        },
      });
      if (this.endpoint !== endpoint) {
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
      if (this.endpoint === endpoint) {
        this.endpoint = undefined;
        void endpoint.stop(500);
      }
      // A restart after a crash that fails (a remote agent's server not back yet) is tried again
      // within the same budget (not refused credentials: no retry cures them); the sessions wait.
      if (restarting && !isPermanentFailure(err) && !this.stopping && !this.disposed && this.scheduleRestart(message)) throw new Error(message);
      this.resumePending = false; // nothing resumes now: prompts are not queued for it (willResume); Restart resumes
      this.setStatus('failed', message);
      throw new Error(message);
    }
    if (this.resumePending) await this.resumeSessions();
  }

  /** The endpoint ended. Unless on purpose: the turns in flight end, and the agent restarts (or gives up). */
  private onEnded(endpoint: AgentEndpoint, exit: EndpointExit): void {
    if (this.endpoint !== endpoint || this.stopping || this.disposed) return;
    const wasRunning = this._status === 'running';
    this.endpoint = undefined;
    const busy = this.sessions.busyIds;
    this.dropConnection();
    if (!wasRunning) return; // failures during start are reported by launch()
    const said = endedWhileRunning(this.def.name, exit, busy.length > 0, this.host.l10n);
    this._lastError = said.lastError;
    for (const sessionId of busy) {
      this.emit({ sessionId, kind: 'notice', severity: 'error', title: said.turnNotice });
      this.emit({ sessionId, kind: 'state', state: 'idle', stopReason: 'agent_exited' });
    }
    if (this.scheduleRestart(this._lastError)) return;
    this.resumePending = false;
    this.setStatus('crashed', this._lastError);
    this.host.report(this.id, `${this._lastError} ${GIVE_UP}`, 'error');
  }

  /** Takes a restart from the budget and schedules it (false: the budget is spent). */
  private scheduleRestart(why: string): boolean {
    const delay = this.restarts.take(this.host.now());
    if (delay === undefined) return false;
    this._lastError = why;
    this.resumePending = this.sessions.detached.size > 0;
    this.setStatus('restarting', why);
    this.host.report(this.id, `${why} Restarting…`, 'warning', 'restarting');
    this.scope.add(
      this.host.schedule(() => {
        if (this.disposed || this.stopping || this._status !== 'restarting') return;
        this.start().catch((err: unknown) => {
          if (this._status === 'restarting') return; // tried again (scheduleRestart)
          this.host.report(this.id, `${this.def.name} could not be restarted: ${err instanceof Error ? err.message : String(err)}`, 'error');
        });
      }, delay),
    );
    return true;
  }

  /** The connection scope ends: turns in flight and mutes are forgotten, every session detached. */
  private dropConnection(): void {
    this.scope.clear();
    this._connection = undefined;
    for (const sessionId of this.sessions.detachAll()) this.host.lifecycle(this.id, { kind: 'session_detached', sessionId });
  }

  /** Resumes every known session on the new connection; the transcript and plans stay as they are. */
  private async resumeSessions(): Promise<void> {
    this.resumePending = false;
    if (!this._connection) return;
    this.resuming = true;
    await resumeDetached(this._connection, this.resumeHost).finally(() => (this.resuming = false));
  }

  private readonly resumeHost: ResumeHost = {
    agentName: () => this.def.name,
    sessions: this.sessions,
    isCurrent: (conn) => this._connection === conn,
    lifecycle: (e) => this.host.lifecycle(this.id, e),
    emit: (e) => this.emit(e),
    prompt: (sessionId, blocks, key) => this.prompt(sessionId, blocks, key),
    words: () => this.host.l10n,
  };

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
