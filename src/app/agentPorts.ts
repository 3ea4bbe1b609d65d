// The ports of the application services that act on agents (SessionActions, SignIn): what they use
// of the agents layer (a running agent's handle and the set of configured agents), of the
// workspace, of the log, and how they tell the user things. Interfaces only, free of `vscode`, so
// the services run in plain Node with fakes (test/unit/app); the VS Code sides live in src/ui
// (sessionPrompts.ts, signInPrompts.ts) and the root wires them. Also SessionActions' dependencies
// (SessionActionsDeps) and the plain data its pickers get (AgentChoice).
import type { AcpConnection, AgentStatus, McpServerConfig } from '../protocol/api';
import type { AuthMethod, ContentBlock } from '../protocol/domain';
import type { AgentDefinition } from '../agents/agentConfig';
import type { IDisposable } from '../common/lifecycle';
import type { SessionKey, SessionStore } from '../state/sessionStore';
import type { PermissionBroker } from './permissionBroker';
import type { L10n } from '../common/l10n';
import type { SignInAction } from './signInWords';

/** What the services use of an agent's connection (present while the agent runs). */
export type AgentConnection = Pick<
  AcpConnection,
  'capabilities' | 'authMethods' | 'authenticate' | 'logout' | 'listSessions' | 'sessionStatus' | 'steering' | 'steer'
>;

/** One configured agent: its process, connection and sessions (the AgentSupervisor). */
export interface AgentHandle {
  readonly id: string;
  readonly def: Readonly<AgentDefinition>;
  readonly status: AgentStatus;
  readonly connection: AgentConnection | undefined;
  stop(): Promise<void>;
  restart(): Promise<void>;
  isAttached(sessionId: string): boolean;
  /** The session will be re-attached once the agent is back from a crash. */
  willResume(sessionId: string): boolean;
  /** `forkOf`: the session to fork (`session/fork`, where the agent advertises it) instead of a new one. */
  newSession(cwd: string, extras: { additionalDirectories?: string[]; mcpServers?: McpServerConfig[]; forkOf?: string }): Promise<string>;
  resumeExisting(sessionId: string, cwd: string, known: boolean): Promise<void>;
  closeSession(sessionId: string): Promise<void>;
  deleteSession(sessionId: string): Promise<void>;
  /** Resolves when the agent took the prompt; `key` is its idempotency key. */
  prompt(sessionId: string, blocks: readonly ContentBlock[], key: string): Promise<void>;
  cancel(sessionId: string): void;
  setConfigOption(sessionId: string, configId: string, value: string | boolean): Promise<unknown>;
}

/** The configured agents (the AgentManager). */
export interface Agents {
  get(agentId: string): AgentHandle | undefined;
  all(): readonly AgentHandle[];
  /** Starts the agent (throws in an untrusted workspace or for an unknown id); resolves once it runs. */
  start(agentId: string): Promise<AgentHandle>;
}

/** A workspace folder as the services need it. */
export interface WorkspaceFolderInfo {
  readonly fsPath: string;
  /** On this machine (a `file` folder): may be offered to an agent as a directory. */
  readonly local: boolean;
}

/** What the workspace says: its folders, the MCP servers setting, trust. */
export interface WorkspacePort {
  folders(): readonly WorkspaceFolderInfo[];
  /** The raw `acp.mcpServers` setting (checked by parseMcpSettings). */
  mcpServersSetting(): unknown;
  /** Throws UntrustedWorkspaceError in an untrusted workspace (no agent program runs there). */
  assertTrusted(): void;
}

/** Where the services log (the ACP channel). */
export interface ServiceLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** How SessionActions tells the user what happened. */
export interface SessionActionsUi {
  /** Queued prompts will not be sent: says `message`, offers to copy `texts`. */
  queueDropped(message: string, texts: readonly string[]): void;
  /** An agent's crash or failure report; resolves 'restart' when the user asks for a restart (Show Log is handled there). */
  agentReport(message: string, severity: 'error' | 'warning' | 'info'): Promise<'restart' | undefined>;
  /** A notice that needs no answer (a capability the agent lacks). */
  notice(message: string): void;
  /** An action the user asked for failed. */
  showError(message: string): void;
}

/** A command to run in a terminal for sign-in; `exit` resolves with its exit code (undefined: closed early). */
export interface TerminalRun extends IDisposable {
  readonly exit: Promise<number | undefined>;
}

export interface TerminalSpec {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string | undefined;
}

/** What the user is asked before a terminal sign-in runs: a question and the details under it (no secret in either). */
export interface SignInConfirmation {
  readonly message: string;
  /** The sections below as one text (logs, tests). */
  readonly detail: string;
  /** The command line as shown (secrets hidden). */
  readonly commandLine: string;
  /** What is shown under the command line: a heading and its lines each. */
  readonly sections: readonly { readonly label: string; readonly lines: readonly string[] }[];
}

/** How SignIn asks and tells the user. */
export interface SignInUi {
  /** `name` asks for sign-in before it can `what`: true when the user chose to sign in. */
  askToSignIn(name: string, what: SignInAction): Promise<boolean>;
  /** The sign-in method the user picks (undefined: dismissed). */
  pickMethod(name: string, methods: readonly AuthMethod[]): Promise<AuthMethod | undefined>;
  /** Asks whether to run the terminal sign-in shown (every line of it on screen): true only for "Run in Terminal"; Cancel or dismissal is false. */
  confirmTerminalRun(c: SignInConfirmation): Promise<boolean>;
  showError(message: string): void;
  showInfo(message: string): void;
  /** Runs the command in a terminal the user sees; disposing it closes the terminal. */
  runInTerminal(spec: TerminalSpec): TerminalRun;
}

/** A configured agent as a picker shows it. */
export interface AgentChoice {
  readonly id: string;
  readonly name: string;
  /** From the SessionStore; 'stopped' for an agent not started yet. */
  readonly status: AgentStatus;
  /** What runs: "Built-in, no setup needed" or the command line. */
  readonly detail: string;
}

export interface SessionActionsDeps {
  readonly agents: Agents;
  readonly store: SessionStore;
  readonly broker: Pick<PermissionBroker, 'cancelSession'>;
  readonly workspace: WorkspacePort;
  readonly log: ServiceLog;
  readonly ui: SessionActionsUi;
  readonly signInUi: SignInUi;
  /** The user's language for what SignIn shows (vscode.l10n in the product; English by default). */
  readonly l10n?: L10n;
  /** Runs before a prompt goes out (the turn-start checkpoint); the prompt waits for it at most BEFORE_TURN_MS. */
  beforeTurn?(ref: SessionKey): Promise<void>;
}
