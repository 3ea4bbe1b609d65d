// Supervises one agent: spawn → initialize (version negotiation) → running; graceful stop;
// crash → clear report, automatic restart with backoff (at most 4 in 3 minutes), then the
// sessions are resumed with the client's transcript and plans kept. Prompts sent while a turn runs
// are queued per session and sent when the turn ends.
import type { AcpConnection, CancelToken, ClientServices, ConnectOptions, McpServerConfig, ProtocolLogger } from '../protocol/api';
import type { ConfigOption, ContentBlock, PermissionOutcome, PermissionRequest, SessionEvent } from '../protocol/domain';
import { AgentProcess, describeExit, type ExitInfo, type SpawnSpec } from './agentProcess';
import type { AgentDefinition } from './agentConfig';

export type AgentStatus = 'stopped' | 'starting' | 'running' | 'stopping' | 'restarting' | 'crashed' | 'failed';

export const RESTART_LIMIT = 4;
export const RESTART_WINDOW_MS = 3 * 60_000;

export interface SessionRecord {
  sessionId: string;
  cwd: string;
  busy: boolean;
  /** Prompts typed while a turn runs, each with a stable id (shown and removable in the view). */
  queue: { id: string; blocks: ContentBlock[] }[];
  /** False when the agent could not resume it after a restart (transcript and plans are kept). */
  live: boolean;
  configOptions: ConfigOption[];
}

export interface SupervisorHost {
  connect(readable: NodeJS.ReadableStream, writable: NodeJS.WritableStream, options: ConnectOptions): Promise<AcpConnection>;
  /** Throws (with a person-readable reason) when no agent may be started, e.g. an untrusted workspace. */
  assertMayStart(): void;
  spawnSpec(def: AgentDefinition): SpawnSpec;
  connectOptions(def: AgentDefinition): Omit<ConnectOptions, 'handlers' | 'logger' | 'protocol'>;
  services(agentId: string): ClientServices;
  logger(def: AgentDefinition): ProtocolLogger;
  stderr(def: AgentDefinition, line: string): void;
  onEvent(agentId: string, e: SessionEvent): void;
  requestPermission(agentId: string, req: PermissionRequest, token: CancelToken): Promise<PermissionOutcome>;
  /** Status or sessions changed. */
  changed(agentId: string): void;
  /** A failure a person must hear about; `actions` are offered as buttons. */
  report(agentId: string, message: string, severity: 'error' | 'warning' | 'info'): void;
  /** Time source (tests may replace it). */
  now(): number;
}

/** Events replayed by `session/load` after a restart duplicate what the transcript already has. */
const REPLAYED_KINDS = new Set<SessionEvent['kind']>(['message_chunk', 'message', 'tool_call', 'tool_call_content_chunk', 'terminal_update', 'terminal_output_chunk']);

export class AgentSupervisor {
  status: AgentStatus = 'stopped';
  /** The last failure, person-readable ("Agent exited (code 3) during a turn"). */
  lastError: string | undefined;
  connection: AcpConnection | undefined;
  readonly sessions = new Map<string, SessionRecord>();
  private proc: AgentProcess | undefined;
  private stopping = false;
  private restarts: number[] = [];
  private muted = new Set<string>();
  private starting: Promise<void> | undefined;
  private disposed = false;
  private queueSeq = 0;

  constructor(private definition: AgentDefinition, private readonly host: SupervisorHost) {}

  get def(): AgentDefinition { return this.definition; }

  /** New settings for a stopped agent (used from its next start). */
  redefine(def: AgentDefinition): void { this.definition = def; }

  get id(): string { return this.def.id; }
  get version(): 1 | 2 | undefined { return this.connection?.version; }

  start(): Promise<void> {
    if (this.status === 'running') return Promise.resolve();
    this.starting ??= this.launch().finally(() => { this.starting = undefined; });
    return this.starting;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.setStatus('stopping');
    const proc = this.proc;
    this.connection?.dispose();
    this.connection = undefined;
    if (proc) await proc.stop();
    this.proc = undefined;
    for (const s of this.sessions.values()) { s.busy = false; s.queue = []; s.live = false; }
    this.setStatus('stopped');
    this.stopping = false;
  }

  async restart(): Promise<void> {
    this.host.assertMayStart(); // refuse before stopping anything
    if (this.status !== 'stopped') await this.stop();
    this.restarts = [];
    this.lastError = undefined;
    await this.start();
    await this.resumeSessions();
  }

  dispose(): void {
    this.disposed = true;
    this.stopping = true;
    this.connection?.dispose();
    this.proc?.kill();
  }

  /**
   * Opens a session in `cwd`. Extra folders and MCP servers are passed only where the agent says
   * it supports them (others are logged and left out, never sent to an agent that can't use them).
   */
  async newSession(cwd: string, extras: { additionalDirectories?: string[]; mcpServers?: McpServerConfig[] } = {}): Promise<SessionRecord> {
    const conn = await this.ready();
    const caps = conn.capabilities;
    const additionalDirectories = caps.additionalDirectories ? extras.additionalDirectories ?? [] : [];
    const mcpServers = (extras.mcpServers ?? []).filter((m) => caps.mcp[m.type]);
    const setup = await conn.newSession({ cwd, additionalDirectories, mcpServers });
    const rec: SessionRecord = { sessionId: setup.sessionId, cwd, busy: false, queue: [], live: true, configOptions: [] };
    this.sessions.set(rec.sessionId, rec);
    if (setup.configOptions) this.onEvent({ sessionId: rec.sessionId, kind: 'config_options', options: setup.configOptions });
    if (setup.commands) this.host.onEvent(this.id, { sessionId: rec.sessionId, kind: 'commands', commands: setup.commands });
    this.host.changed(this.id);
    return rec;
  }

  /** Opens a session the agent already has (from `session/list`), replaying its history. */
  async resumeExisting(sessionId: string, cwd: string): Promise<void> {
    const conn = await this.ready();
    // A session this client already shows keeps its transcript: the replay's messages would
    // duplicate it (plans replay harmlessly: an identical plan is not a new version).
    const known = this.sessions.has(sessionId);
    const rec: SessionRecord = { sessionId, cwd, busy: false, queue: [], live: true, configOptions: [] };
    this.sessions.set(sessionId, rec);
    if (known) this.muted.add(sessionId);
    try {
      const setup = await conn.resumeSession({ sessionId, cwd, additionalDirectories: [], mcpServers: [], replay: !known || !conn.capabilities.resume });
      if (setup.configOptions) this.onEvent({ sessionId, kind: 'config_options', options: setup.configOptions });
    } catch (err) {
      rec.live = false;
      throw err;
    } finally {
      this.muted.delete(sessionId);
      this.host.changed(this.id);
    }
  }

  async closeSession(sessionId: string): Promise<void> {
    const s = this.sessions.get(sessionId);
    if (!s) return;
    this.cancel(sessionId);
    s.live = false;
    if (this.connection?.capabilities.close) await this.connection.closeSession(sessionId);
    this.host.changed(this.id);
  }

  async deleteSession(sessionId: string): Promise<void> {
    const conn = await this.ready();
    if (!conn.capabilities.delete) throw new Error(`${this.def.name} does not support deleting sessions.`);
    await conn.deleteSession(sessionId);
    this.sessions.delete(sessionId);
    this.host.changed(this.id);
  }

  configOptions(sessionId: string): ConfigOption[] { return this.sessions.get(sessionId)?.configOptions ?? []; }

  async setConfigOption(sessionId: string, configId: string, value: string | boolean): Promise<void> {
    const conn = await this.ready();
    const options = await conn.setConfigOption(sessionId, configId, value);
    this.onEvent({ sessionId, kind: 'config_options', options });
  }

  /** Sends now when the session is idle, else queues (visible through `sessions`). */
  prompt(sessionId: string, blocks: ContentBlock[]): void {
    const s = this.sessions.get(sessionId);
    if (!s) throw new Error(`Unknown session ${sessionId}.`);
    if (!s.live) {
      throw new Error(this.status === 'restarting' || this.status === 'starting'
        ? `${this.def.name} is restarting; the session is resumed in a moment. Send the prompt again then.`
        : 'This session ended when the agent stopped and could not be resumed. Start a new session.');
    }
    if (s.busy) { s.queue.push({ id: `q${++this.queueSeq}`, blocks }); this.host.changed(this.id); return; }
    this.send(s, blocks);
  }

  cancel(sessionId: string): void {
    const s = this.sessions.get(sessionId);
    if (!s) return;
    s.queue = [];
    if (s.busy) this.connection?.cancel(sessionId);
    this.host.changed(this.id);
  }

  /** Called for every event of this agent, in order; keeps turn state and drains queues. */
  private onEvent(e: SessionEvent): void {
    if (this.muted.has(e.sessionId) && REPLAYED_KINDS.has(e.kind)) return;
    this.host.onEvent(this.id, e);
    if (e.kind === 'config_options') {
      const s = this.sessions.get(e.sessionId);
      if (s) s.configOptions = e.options;
    } else if (e.kind === 'state') {
      const s = this.sessions.get(e.sessionId);
      if (!s) return;
      if (e.state === 'idle' && e.stopReason != null) this.turnEnded(s);
      else if (e.state === 'running' || e.state === 'requires_action') s.busy = true;
    }
  }

  private send(s: SessionRecord, blocks: ContentBlock[]): void {
    const conn = this.connection;
    if (!conn) throw new Error('The agent is not running.');
    s.busy = true;
    this.host.changed(this.id);
    conn.prompt(s.sessionId, blocks).catch((err: unknown) => {
      if (!this.sessions.has(s.sessionId) || this.connection !== conn) return; // crash handled elsewhere
      const message = err instanceof Error ? err.message : String(err);
      this.host.onEvent(this.id, { sessionId: s.sessionId, kind: 'notice', severity: 'error', title: `The agent refused the prompt: ${message}` });
      this.host.onEvent(this.id, { sessionId: s.sessionId, kind: 'state', state: 'idle', stopReason: 'error' });
      this.turnEnded(s);
    });
  }

  private turnEnded(s: SessionRecord): void {
    s.busy = false;
    const next = s.queue.shift();
    if (next && this.connection) this.send(s, next.blocks);
    this.host.changed(this.id);
  }

  private async ready(): Promise<AcpConnection> {
    if (this.status !== 'running') await this.start();
    if (!this.connection) throw new Error(`${this.def.name} is not running${this.lastError ? `: ${this.lastError}` : ''}.`);
    return this.connection;
  }

  private async launch(): Promise<void> {
    // Every path that spawns (start, restart, a command that needs the agent) passes here.
    this.host.assertMayStart();
    this.setStatus('starting');
    const spec = this.host.spawnSpec(this.def);
    const proc = new AgentProcess(spec, (line) => this.host.stderr(this.def, line));
    this.proc = proc;
    void proc.exited.then((info) => this.onExit(proc, info));
    try {
      const options: ConnectOptions = {
        ...this.host.connectOptions(this.def),
        protocol: this.def.protocol,
        logger: this.host.logger(this.def),
        handlers: {
          ...this.host.services(this.id),
          onEvent: (e) => this.onEvent(e),
          requestPermission: (req, token) => this.host.requestPermission(this.id, req, token),
        },
      };
      const conn = await Promise.race([
        this.host.connect(proc.stdout, proc.stdin, options),
        proc.exited.then((info) => { throw new Error(`Agent ${describeExit(info)} during initialize${tailText(info)}`); }),
      ]);
      if (this.proc !== proc) { conn.dispose(); return; }
      this.connection = conn;
      this.lastError = undefined;
      this.setStatus('running');
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.lastError = message;
      if (this.proc === proc) { this.proc = undefined; void proc.stop(500); }
      this.setStatus('failed');
      throw new Error(message);
    }
  }

  private onExit(proc: AgentProcess, info: ExitInfo): void {
    if (this.proc !== proc || this.stopping || this.disposed) return;
    const wasRunning = this.status === 'running';
    this.proc = undefined;
    this.connection?.dispose();
    this.connection = undefined;
    if (!wasRunning) return; // failures during start are reported by launch()
    const busy = [...this.sessions.values()].filter((s) => s.busy);
    const during = busy.length ? 'during a turn' : 'while idle';
    this.lastError = `Agent ${describeExit(info)} ${during}${tailText(info)}`;
    for (const s of this.sessions.values()) s.live = false; // until resumed on the new process
    for (const s of busy) {
      s.busy = false;
      this.host.onEvent(this.id, { sessionId: s.sessionId, kind: 'notice', severity: 'error', title: `${this.def.name} stopped unexpectedly (${describeExit(info)}); the turn was interrupted.` });
      this.host.onEvent(this.id, { sessionId: s.sessionId, kind: 'state', state: 'idle', stopReason: 'agent_exited' });
    }
    const now = this.host.now();
    this.restarts = this.restarts.filter((t) => now - t < RESTART_WINDOW_MS);
    if (this.restarts.length >= RESTART_LIMIT) {
      this.setStatus('crashed');
      for (const s of this.sessions.values()) s.live = false;
      this.host.report(this.id, `${this.def.name}: ${this.lastError}. It crashed ${RESTART_LIMIT + 1} times in 3 minutes, so it is not restarted again.`, 'error');
      return;
    }
    this.restarts.push(now);
    this.setStatus('restarting');
    this.host.report(this.id, `${this.def.name}: ${this.lastError}. Restarting…`, 'warning');
    const delay = 250 * 2 ** (this.restarts.length - 1);
    setTimeout(() => {
      if (this.disposed || this.stopping || this.status !== 'restarting') return;
      this.start().then(() => this.resumeSessions()).catch((err: unknown) => {
        this.host.report(this.id, `${this.def.name} could not be restarted: ${err instanceof Error ? err.message : String(err)}`, 'error');
      });
    }, delay);
  }

  /** Resumes every known session on the new connection; the transcript and plans stay as they are. */
  private async resumeSessions(): Promise<void> {
    const conn = this.connection;
    if (!conn) return;
    const caps = conn.capabilities;
    for (const s of this.sessions.values()) {
      const replay = !caps.resume && caps.loadSession;
      if (!caps.resume && !caps.loadSession) {
        s.live = false;
        this.host.onEvent(this.id, { sessionId: s.sessionId, kind: 'notice', severity: 'warning', title: `${this.def.name} cannot resume sessions; this conversation is kept read-only. Start a new session to continue.` });
        continue;
      }
      if (replay) this.muted.add(s.sessionId);
      try {
        await conn.resumeSession({ sessionId: s.sessionId, cwd: s.cwd, additionalDirectories: [], mcpServers: [], replay });
        s.live = true;
        this.host.onEvent(this.id, { sessionId: s.sessionId, kind: 'notice', severity: 'info', title: `Session resumed after the agent restarted.` });
      } catch (err) {
        s.live = false;
        this.host.onEvent(this.id, { sessionId: s.sessionId, kind: 'notice', severity: 'warning', title: `The session could not be resumed (${err instanceof Error ? err.message : String(err)}); its transcript and plans are kept.` });
      } finally {
        this.muted.delete(s.sessionId);
      }
    }
    this.host.changed(this.id);
  }

  private setStatus(s: AgentStatus): void {
    if (this.status === s) return;
    this.status = s;
    this.host.changed(this.id);
  }
}

function tailText(info: ExitInfo): string {
  const lines = info.stderrTail.filter((l) => l.trim()).slice(-3);
  return lines.length ? `. Last output: ${lines.join(' | ').slice(0, 400)}` : '';
}
