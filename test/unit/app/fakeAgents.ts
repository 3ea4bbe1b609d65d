// Fakes of the ports SessionActions and SignIn use (src/app/agentPorts.ts), for unit tests in plain
// Node: agents whose "supervisors" record what they were asked and report their lifecycle
// synchronously (as the real supervisor does), a workspace, a log, and UIs that record what the
// user was told and answer with what a test queued.
import type {
  AgentConnection,
  AgentHandle,
  Agents,
  ServiceLog,
  SessionActionsUi,
  SignInConfirmation,
  SignInUi,
  TerminalRun,
  TerminalSpec,
  WorkspacePort,
} from '../../../src/app/agentPorts';
import type { LifecycleEvent } from '../../../src/agents/supervisor';
import type { AgentDefinition } from '../../../src/agents/agentConfig';
import type { AgentStatus, SteerOutcome } from '../../../src/protocol/api';
import type { AuthMethod, ContentBlock } from '../../../src/protocol/domain';

export interface Sent {
  readonly sessionId: string;
  readonly text: string;
  readonly key: string;
}

export const CAPABILITIES = {
  loadSession: true,
  resume: true,
  list: true,
  close: true,
  delete: true,
  additionalDirectories: true,
  logout: true,
  prompt: { image: false, audio: false, embeddedContext: false },
  mcp: { stdio: true, http: false, sse: false },
};

export class FakeConnection implements AgentConnection {
  capabilities = { ...CAPABILITIES };
  authMethods: AuthMethod[] = [];
  readonly authenticated: string[] = [];
  loggedOut = 0;
  authenticate(methodId: string): Promise<void> {
    this.authenticated.push(methodId);
    return Promise.resolve();
  }
  logout(): Promise<void> {
    this.loggedOut++;
    return Promise.resolve();
  }
  listSessions(p?: { cwd?: string; cursor?: string }): Promise<{ sessions: { sessionId: string; cwd: string }[]; nextCursor?: string | null }> {
    return Promise.resolve({ sessions: [{ sessionId: `listed-${p?.cursor ?? 'first'}`, cwd: p?.cwd ?? '' }] });
  }
  sessionStatus(): Promise<{ status: string }> {
    return Promise.resolve({ status: 'saved' });
  }
  /** Off unless a test advertises it; `steerAnswer` is what the agent makes of a steer. */
  steering = false;
  steerAnswer: SteerOutcome = { kind: 'injected' };
  readonly steered: string[] = [];
  steer(_sessionId: string, blocks: readonly ContentBlock[]): Promise<SteerOutcome> {
    this.steered.push(blocks.map((b) => (b.type === 'text' ? b.text : '')).join(''));
    return Promise.resolve(this.steerAnswer);
  }
}

export class FakeAgent implements AgentHandle {
  status: AgentStatus = 'stopped';
  connection: FakeConnection | undefined;
  readonly def: AgentDefinition;
  /** Where lifecycle events go (the test wires it to SessionActions.applyLifecycle). */
  lifecycle: (e: LifecycleEvent) => void = () => undefined;
  readonly sent: Sent[] = [];
  readonly cancelled: string[] = [];
  readonly attached = new Set<string>();
  readonly resumable = new Set<string>();
  restarts = 0;
  stops = 0;
  private nextSession = 0;
  /** Replaces newSession's behaviour (e.g. to throw auth_required). */
  onNewSession: (() => Promise<string>) | undefined;

  constructor(
    readonly id: string,
    name = id,
  ) {
    this.def = { id, name, command: '/usr/bin/fake-agent', args: ['--acp'], env: { FAKE: '1' }, protocol: 'auto', builtIn: false };
  }

  setStatus(status: AgentStatus): void {
    this.status = status;
    this.connection = status === 'running' ? (this.connection ?? new FakeConnection()) : undefined;
    this.lifecycle({ kind: 'status', status });
  }
  attach(sessionId: string): void {
    this.attached.add(sessionId);
    this.lifecycle({ kind: 'session_attached', sessionId, cwd: '/work/project' });
  }
  detach(sessionId: string, resumable: boolean): void {
    this.attached.delete(sessionId);
    if (resumable) this.resumable.add(sessionId);
    else this.resumable.delete(sessionId);
    this.lifecycle({ kind: 'session_detached', sessionId });
  }

  stop(): Promise<void> {
    this.stops++;
    this.setStatus('stopping');
    for (const s of [...this.attached]) this.detach(s, false);
    this.setStatus('stopped');
    return Promise.resolve();
  }
  /** Called on restart (a test waits for it). */
  onRestart: () => void = () => undefined;
  restart(): Promise<void> {
    this.restarts++;
    this.onRestart();
    return Promise.resolve();
  }
  isAttached(sessionId: string): boolean {
    return this.attached.has(sessionId);
  }
  willResume(sessionId: string): boolean {
    return this.resumable.has(sessionId);
  }
  async newSession(): Promise<string> {
    const id = this.onNewSession ? await this.onNewSession() : `s${++this.nextSession}`;
    this.attach(id);
    return id;
  }
  resumeExisting(sessionId: string): Promise<void> {
    this.attach(sessionId);
    return Promise.resolve();
  }
  closeSession(sessionId: string): Promise<void> {
    this.detach(sessionId, false);
    return Promise.resolve();
  }
  deleteSession(sessionId: string): Promise<void> {
    this.lifecycle({ kind: 'session_deleted', sessionId });
    return Promise.resolve();
  }
  prompt(sessionId: string, blocks: readonly ContentBlock[], key: string): Promise<void> {
    this.sent.push({ sessionId, text: blocks.map((b) => (b.type === 'text' ? b.text : '')).join(''), key });
    return Promise.resolve();
  }
  cancel(sessionId: string): void {
    this.cancelled.push(sessionId);
  }
  setConfigOption(): Promise<unknown> {
    return Promise.resolve([]);
  }
}

export class FakeAgents implements Agents {
  readonly byId = new Map<string, FakeAgent>();
  add(agent: FakeAgent): FakeAgent {
    this.byId.set(agent.id, agent);
    return agent;
  }
  get(agentId: string): FakeAgent | undefined {
    return this.byId.get(agentId);
  }
  all(): FakeAgent[] {
    return [...this.byId.values()];
  }
  async start(agentId: string): Promise<FakeAgent> {
    const a = this.byId.get(agentId);
    if (!a) throw new Error(`No agent "${agentId}" is configured.`);
    if (a.status !== 'running') a.setStatus('running');
    return Promise.resolve(a);
  }
}

export function fakeWorkspace(folders = ['/work/project']): WorkspacePort & { trusted: boolean } {
  const w = {
    trusted: true,
    folders: () => folders.map((fsPath) => ({ fsPath, local: true })),
    mcpServersSetting: () => [],
    assertTrusted: () => {
      if (!w.trusted) throw new Error('untrusted workspace');
    },
  };
  return w;
}

export function fakeLog(): ServiceLog & { lines: string[] } {
  const lines: string[] = [];
  return { lines, info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`), error: (m) => lines.push(`error ${m}`) };
}

/** SessionActionsUi recording what it was told. */
export class FakeSessionUi implements SessionActionsUi {
  readonly dropped: { message: string; texts: readonly string[] }[] = [];
  readonly notices: string[] = [];
  readonly errors: string[] = [];
  reportAnswer: 'restart' | undefined;
  readonly reports: string[] = [];
  queueDropped(message: string, texts: readonly string[]): void {
    this.dropped.push({ message, texts });
  }
  agentReport(message: string): Promise<'restart' | undefined> {
    this.reports.push(message);
    return Promise.resolve(this.reportAnswer);
  }
  notice(message: string): void {
    this.notices.push(message);
  }
  showError(message: string): void {
    this.errors.push(message);
  }
}

/** SignInUi answering as a test says; terminal runs end with the exit code the test gives. */
export class FakeSignInUi implements SignInUi {
  signIn = true;
  method: (methods: readonly AuthMethod[]) => AuthMethod | undefined = (ms) => ms[0];
  readonly asked: string[] = [];
  readonly errors: string[] = [];
  readonly infos: string[] = [];
  readonly terminals: TerminalSpec[] = [];
  exitCode: number | undefined = 0;
  terminalsClosed = 0;
  /** The answer to the confirmation before a terminal sign-in ("Run in Terminal" when true). */
  confirmRun = true;
  readonly confirmations: SignInConfirmation[] = [];
  askToSignIn(name: string, what: string): Promise<boolean> {
    this.asked.push(`${name} / ${what}`);
    return Promise.resolve(this.signIn);
  }
  pickMethod(_name: string, methods: readonly AuthMethod[]): Promise<AuthMethod | undefined> {
    return Promise.resolve(this.method(methods));
  }
  confirmTerminalRun(c: SignInConfirmation): Promise<boolean> {
    this.confirmations.push(c);
    return Promise.resolve(this.confirmRun);
  }
  showError(message: string): void {
    this.errors.push(message);
  }
  showInfo(message: string): void {
    this.infos.push(message);
  }
  runInTerminal(spec: TerminalSpec): TerminalRun {
    this.terminals.push(spec);
    return { exit: Promise.resolve(this.exitCode), dispose: () => this.terminalsClosed++ };
  }
}
