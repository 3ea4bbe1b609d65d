// The version-neutral surface of one ACP connection. The rest of the extension talks to an agent
// only through this interface; `connect()` (src/protocol/connect.ts) negotiates the version and
// returns an implementation backed by the v1 or the v2 adapter.
import type {
  AgentCapabilities,
  AgentInfo,
  AuthMethod,
  ConfigOption,
  AvailableCommand,
  ContentBlock,
  PermissionOutcome,
  PermissionRequest,
  ProtocolVersion,
  SessionEvent,
} from './domain';
import type { ElicitationRequest, ElicitationResponse } from './elicitation';

/** Minimal disposable/event shapes, so src/protocol stays free of `vscode`. */
export interface Disposable {
  dispose(): void;
}
export type Listener<T> = (e: T) => void;
export interface Event<T> {
  (listener: Listener<T>): Disposable;
}

/** The lifecycle of an agent and its connection (`failed`: the start failed, `crashed`: it stopped
 *  unexpectedly too often to be restarted again). The public API's types (src/api/types.ts, a leaf
 *  file with no imports) spell the same union; src/api/createApi.ts checks at compile time that the
 *  two agree. */
export type AgentStatus = 'stopped' | 'starting' | 'running' | 'stopping' | 'restarting' | 'crashed' | 'failed';

export interface CancelToken {
  readonly isCancellationRequested: boolean;
  onCancellationRequested: Event<void>;
}

export interface McpServerConfig {
  type: 'stdio' | 'http' | 'sse';
  name: string;
  command?: string;
  args?: string[];
  env?: { name: string; value: string }[];
  url?: string;
  headers?: { name: string; value: string }[];
}

export interface NewSessionParams {
  cwd: string;
  additionalDirectories?: string[];
  mcpServers?: McpServerConfig[];
}
export interface SessionSetup {
  sessionId: string;
  configOptions?: ConfigOption[];
  commands?: AvailableCommand[];
}
export interface SessionListEntry {
  sessionId: string;
  cwd: string;
  title?: string | null;
  updatedAt?: string | null;
  /** v2 (unstable, `session.archive`): whether the agent keeps it archived. */
  archived?: boolean;
}
export interface ListSessionsParams {
  cwd?: string;
  cursor?: string;
  /** v2 (unstable): which sessions by archive state; send only to an agent with `session.archive`. */
  archived?: 'exclude' | 'include' | 'only';
}
/** `session/status` (v2, unstable): `open` (in the agent's memory), `saved`, or a value of the agent's. */
export interface SessionStatusInfo {
  status: string;
  /** The foreground state snapshot (`running`, `idle`, `requires_action`…), when the agent reports it. */
  state?: string;
}

/** v1 client services (fs, terminal). v2 has none; the v2 adapter never calls them. */
export interface ClientServices {
  readTextFile?(p: { sessionId: string; path: string; line?: number | null; limit?: number | null }): Promise<{ content: string }>;
  writeTextFile?(p: { sessionId: string; path: string; content: string }): Promise<void>;
  terminal?: {
    create(p: {
      sessionId: string;
      command: string;
      args?: string[];
      env?: { name: string; value: string }[];
      cwd?: string | null;
      outputByteLimit?: number | null;
    }): Promise<{ terminalId: string }>;
    output(p: {
      sessionId: string;
      terminalId: string;
    }): Promise<{ output: string; truncated: boolean; exitStatus?: { exitCode?: number | null; signal?: string | null } | null }>;
    waitForExit(p: { sessionId: string; terminalId: string }): Promise<{ exitCode?: number | null; signal?: string | null }>;
    kill(p: { sessionId: string; terminalId: string }): Promise<void>;
    release(p: { sessionId: string; terminalId: string }): Promise<void>;
  };
}

export interface ClientHandlers extends ClientServices {
  /** Called synchronously, in arrival order, for every session update (never awaited). */
  onEvent(e: SessionEvent): void;
  /** Must never resolve to an approval without the user (or a rule the user set). */
  requestPermission(req: PermissionRequest, token: CancelToken): Promise<PermissionOutcome>;
  /**
   * Answers `elicitation/create` (advertised only when present; else -32601). Must never accept
   * without the user. The token is cancelled when the agent withdraws the request, the session is
   * cancelled (session-scoped ones) or the connection closes; the answer is then `cancel`.
   */
  elicit?(req: ElicitationRequest, token: CancelToken): Promise<ElicitationResponse>;
  /** `elicitation/complete`: the agent says a URL elicitation finished. */
  onElicitationComplete?(elicitationId: string): void;
}

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';
export interface ProtocolLogger {
  log(level: LogLevel, message: string): void;
  /** Every wire message, both ways (already parsed); secrets must be redacted by the receiver. */
  wire?(direction: 'send' | 'receive', message: unknown): void;
}

export interface ConnectOptions {
  /** `auto` offers v2 and falls back to v1; 1 or 2 pins the version. */
  protocol: 'auto' | 1 | 2;
  clientInfo: { name: string; title?: string; version: string };
  handlers: ClientHandlers;
  logger?: ProtocolLogger;
  /** Discard (and report) stdout lines longer than this many bytes. Default 64 MiB. */
  maxLineBytes?: number;
  /** Milliseconds for `initialize` to answer. Default 30 000. */
  initializeTimeoutMs?: number;
  /** Advertise the unstable plan opt-in (v1 `clientCapabilities.plan`). Default true. */
  unstablePlans?: boolean;
}

export interface AcpConnection extends Disposable {
  readonly version: ProtocolVersion;
  readonly agentInfo: AgentInfo | undefined;
  readonly capabilities: AgentCapabilities;
  readonly authMethods: AuthMethod[];
  /** Fires once when the pipe closes or the connection is disposed; pending requests are rejected. */
  readonly onClose: Event<{ error?: Error }>;

  authenticate(methodId: string): Promise<void>;
  logout(): Promise<void>;

  newSession(p: NewSessionParams): Promise<SessionSetup>;
  /** v2 `session/resume` (replayFrom start when `replay`), v1 `session/load` (replay) or `session/resume`. */
  resumeSession(p: NewSessionParams & { sessionId: string; replay: boolean }): Promise<SessionSetup>;
  listSessions(p?: ListSessionsParams): Promise<{ sessions: SessionListEntry[]; nextCursor?: string | null }>;
  closeSession(sessionId: string): Promise<void>;
  deleteSession(sessionId: string): Promise<void>;
  /**
   * v2 (unstable), each only where the agent advertises it (`capabilities.fork`, `archive`,
   * `title`, `status`); they reject on v1. `forkSession` answers the new session (not attached:
   * the supervisor attaches it); `setSessionTitle` the title the agent stored.
   */
  forkSession(p: NewSessionParams & { sessionId: string }): Promise<SessionSetup>;
  setSessionArchived(sessionId: string, archived: boolean): Promise<void>;
  setSessionTitle(sessionId: string, title: string): Promise<string>;
  sessionStatus(sessionId: string): Promise<SessionStatusInfo>;

  /**
   * Sends a prompt. Resolves when the agent accepted it (v2) or when the turn ended (v1).
   * Either way the turn's end is reported as a `state` event `idle` with a stopReason.
   */
  prompt(sessionId: string, prompt: ContentBlock[], opts?: { idempotencyKey?: string }): Promise<{ messageId?: string; stopReason?: string }>;
  /** `session/cancel`; the client also answers its pending permission requests `cancelled`. */
  cancel(sessionId: string): void;
  /** v2 `terminal/cancel` / `tool_call/cancel` (rejects on v1, which has neither). */
  cancelTerminal(sessionId: string, terminalId: string): Promise<void>;
  cancelToolCall(sessionId: string, toolCallId: string): Promise<void>;
  /** v1 modes (V1_MODE_CONFIG_ID) map to `session/set_mode`. */
  setConfigOption(sessionId: string, configId: string, value: string | boolean): Promise<ConfigOption[]>;
  /** The agent advertised steering (`_meta.steering` of its initialize answer). */
  readonly steering: boolean;
  /**
   * Sends input into the running turn (`_session/steering`). Never rejects: an error answer or a
   * closed connection is `failed` with its message. On `injected` (and `newTurn`) the message is
   * reported as a user message event (`steered` when injected).
   */
  steer(sessionId: string, blocks: readonly ContentBlock[]): Promise<SteerOutcome>;
}

/** What the agent did with steered input. */
export type SteerOutcome =
  /** Joined the running turn. */
  | { kind: 'injected' }
  /** The turn had ended; the agent started a new one with it. */
  | { kind: 'newTurn' }
  /** Not taken; `reason` as the agent (or the error) gave it. */
  | { kind: 'failed'; reason?: string }
  /** The turn had ended; the client is to send it as a prompt. */
  | { kind: 'promptRequired'; reason?: string }
  /** An answer this client does not know, kept whole. */
  | { kind: 'unknown'; raw: unknown };
