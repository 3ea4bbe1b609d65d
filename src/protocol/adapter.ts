// The version adapter: the only code that knows what v1 or v2 looks like on the wire. The
// connection (connect.ts) builds requests with it, sends them, and hands every incoming message
// to it; everything it gets back is version-neutral (domain.ts, api.ts).
//
// An adapter instance is per connection and holds a little per-session state (v1: synthesized
// message ids, turn counters, modes). Build a call right before sending it: building a v1 prompt
// call starts a new turn.
import type {
  AgentCapabilities,
  AgentInfo,
  AuthMethod,
  ConfigOption,
  ContentBlock,
  JsonObject,
  PermissionOutcome,
  PermissionRequest,
  ProtocolVersion,
  SessionEvent,
} from './domain';
import type { ClientServices, ListSessionsParams, NewSessionParams, SessionListEntry, SessionSetup, SessionStatusInfo, SteerOutcome } from './api';
import type { ElicitationRequest, ElicitationResponse } from './elicitation';
import { createV1Adapter } from './v1/adapter';
import { createV2Adapter } from './v2/adapter';

export { ProtocolShapeError } from './common/errors';

/** Every method name of one version (values come only from v1/methods.ts and v2/methods.ts). */
export interface MethodNames {
  // client → agent requests
  readonly initialize: string;
  /** v1 `authenticate`, v2 `auth/login`. */
  readonly authenticate: string;
  /** v1 `logout`, v2 `auth/logout`. */
  readonly logout: string;
  readonly sessionNew: string;
  /** v1 only. */
  readonly sessionLoad?: string;
  readonly sessionResume: string;
  readonly sessionList: string;
  readonly sessionClose: string;
  readonly sessionDelete: string;
  /** v2 only (unstable, later draft): fork, archive, unarchive, set_title, status. */
  readonly sessionFork?: string;
  readonly sessionArchive?: string;
  readonly sessionUnarchive?: string;
  readonly sessionSetTitle?: string;
  readonly sessionStatus?: string;
  /** v1 only. */
  readonly sessionSetMode?: string;
  readonly sessionSetConfigOption: string;
  readonly sessionPrompt: string;
  // client → agent notifications
  readonly sessionCancel: string;
  // both ways
  readonly cancelRequest: string;
  // agent → client
  readonly sessionUpdate: string;
  readonly requestPermission: string;
  readonly elicitationCreate: string;
  readonly elicitationComplete: string;
  /** v1 only (client services). */
  readonly fsReadTextFile?: string;
  readonly fsWriteTextFile?: string;
  readonly terminalCreate?: string;
  readonly terminalOutput?: string;
  readonly terminalWaitForExit?: string;
  readonly terminalKill?: string;
  readonly terminalRelease?: string;
  /** v2 only: client → agent cancels of one background item. */
  readonly terminalCancel?: string;
  readonly toolCallCancel?: string;
}

export interface InitializeOptions {
  clientInfo: { name: string; title?: string; version: string };
  /** v1: advertise `clientCapabilities.plan: {}` (unstable plan_update/plan_removed). */
  unstablePlans: boolean;
  /** v1 client services actually offered (ignored by v2). */
  fs?: { readTextFile: boolean; writeTextFile: boolean };
  terminal?: boolean;
  /** Advertise terminal auth methods (v1 `auth.terminal: true`, v2 `auth.terminal: {}`). Default true. */
  terminalAuth?: boolean;
  /** Advertise boolean config options (v1 `session.configOptions.boolean`). Default true. */
  booleanConfigOptions?: boolean;
  /** Advertise form and URL elicitation (`elicitation: {form: {}, url: {}}`). */
  elicitation?: boolean;
}

export interface InitializeInfo {
  /** The version number the agent answered (the negotiator decides what to do with it). */
  protocolVersion: number;
  agentInfo: AgentInfo | undefined;
  capabilities: AgentCapabilities;
  authMethods: AuthMethod[];
  raw: JsonObject;
}

/** A JSON-RPC error as received (for `AdapterCall.fail`). */
export interface WireError {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * One client → agent request, ready to send. The connection:
 *   1. emits `eventsBefore` (in order) then writes `{method, params}`;
 *   2. on a result, calls `decode(result)`, emits the returned `events`, and resolves with `value`;
 *   3. on an error response, emits `fail(error)` (if present) and rejects. If `decode` threw a
 *      ProtocolShapeError, it does the same with `{code: -32603, message: err.message}` and rejects
 *      with that error (so a v1 turn still ends with an `idle` state).
 */
export interface AdapterCall<R> {
  readonly method: string;
  readonly params: JsonObject;
  readonly eventsBefore: SessionEvent[];
  decode(result: unknown): { value: R; events: SessionEvent[] };
  fail?(error: WireError): SessionEvent[];
}

export interface AdapterNotification {
  readonly method: string;
  readonly params: JsonObject;
}

/** Decoding of one v1 client-service request and encoding of its result. */
export interface ServiceCodec<P, R> {
  readonly method: string;
  /** Throws ProtocolShapeError (answer -32602). */
  decodeParams(raw: unknown): P;
  encodeResult(result: R): JsonObject;
}

type Svc = Required<ClientServices>;
type TerminalSvc = Svc['terminal'];
type P0<F> = F extends (p: infer P) => unknown ? P : never;
type R0<F> = F extends (...a: never[]) => Promise<infer R> ? R : never;

/** The v1 client services (fs, terminal); v2 has none. */
export interface ClientServiceCodecs {
  readonly readTextFile: ServiceCodec<P0<Svc['readTextFile']>, R0<Svc['readTextFile']>>;
  readonly writeTextFile: ServiceCodec<P0<Svc['writeTextFile']>, void>;
  readonly terminalCreate: ServiceCodec<P0<TerminalSvc['create']>, R0<TerminalSvc['create']>>;
  readonly terminalOutput: ServiceCodec<P0<TerminalSvc['output']>, R0<TerminalSvc['output']>>;
  readonly terminalWaitForExit: ServiceCodec<P0<TerminalSvc['waitForExit']>, R0<TerminalSvc['waitForExit']>>;
  readonly terminalKill: ServiceCodec<P0<TerminalSvc['kill']>, void>;
  readonly terminalRelease: ServiceCodec<P0<TerminalSvc['release']>, void>;
}

export interface PromptResultValue {
  messageId?: string;
  stopReason?: string;
}

export interface VersionAdapter {
  readonly version: ProtocolVersion;
  readonly methods: MethodNames;

  /** `initialize` params for this version. */
  initializeParams(opts: InitializeOptions): JsonObject;
  /** Throws ProtocolShapeError when the result is not this version's shape (v2: `info` missing…). */
  parseInitializeResult(raw: unknown): InitializeInfo;

  authenticate(methodId: string): AdapterCall<void>;
  logout(): AdapterCall<void>;

  newSession(p: NewSessionParams): AdapterCall<SessionSetup>;
  /** v1: `session/load` when `replay`, else `session/resume`; v2: `session/resume` (+ replayFrom start). */
  resumeSession(p: NewSessionParams & { sessionId: string; replay: boolean }): AdapterCall<SessionSetup>;
  listSessions(p?: ListSessionsParams): AdapterCall<{ sessions: SessionListEntry[]; nextCursor?: string | null }>;
  closeSession(sessionId: string): AdapterCall<void>;
  deleteSession(sessionId: string): AdapterCall<void>;

  /**
   * v1: eventsBefore = the user message + `state running`; decode → `state idle` + stopReason;
   * fail → `state idle`, stopReason `error`. v2: accepts `{}` and `{messageId}`, no events.
   * `idempotencyKey`: sent by v2 (every v2 agent with sessions honors it: a retry with the same
   * key inserts the prompt once); v1 has no such field and leaves it out.
   */
  prompt(sessionId: string, prompt: ContentBlock[], idempotencyKey?: string): AdapterCall<PromptResultValue>;
  cancel(sessionId: string): AdapterNotification;
  /** v2 only (`terminal/cancel`, `tool_call/cancel`); send only when the item's controls offer cancel. */
  cancelTerminal?(sessionId: string, terminalId: string): AdapterCall<void>;
  cancelToolCall?(sessionId: string, toolCallId: string): AdapterCall<void>;
  /**
   * `_session/steering` (common/steering.ts). decode yields the message as a user message event:
   * `steered`, inside the running turn, when injected; the start of a new turn when the agent
   * started one.
   */
  steer(sessionId: string, blocks: readonly ContentBlock[]): AdapterCall<SteerOutcome>;
  /** v1 `V1_MODE_CONFIG_ID` → `session/set_mode`. decode also yields a `config_options` event. */
  setConfigOption(sessionId: string, configId: string, value: string | boolean): AdapterCall<ConfigOption[]>;

  /**
   * `session/update` params → events (usually one). Throws ProtocolShapeError only when the
   * envelope (`sessionId`, `update.sessionUpdate`) is invalid or a known variant is malformed;
   * unknown variants become `unknown` events.
   */
  decodeUpdate(params: unknown): SessionEvent[];
  /** `session/request_permission` params. Throws ProtocolShapeError (answer -32602). */
  decodePermissionRequest(params: unknown): PermissionRequest;
  /** The result object for `session/request_permission`. */
  encodePermissionOutcome(outcome: PermissionOutcome): JsonObject;

  /**
   * `elicitation/create` params. Throws ProtocolShapeError (answer -32602) for a broken envelope;
   * an unusable request's `problem` is a reason (a code and its data) the views word.
   */
  decodeElicitation(params: unknown): ElicitationRequest;
  /** `elicitation/complete` params → the elicitation id; undefined when malformed. */
  decodeElicitationComplete(params: unknown): string | undefined;
  /** The result object for `elicitation/create`. */
  encodeElicitationResponse(response: ElicitationResponse): JsonObject;

  /** v1 only. */
  readonly clientServices?: ClientServiceCodecs;

  /** v2 only (unstable): the session management calls (src/protocol/v2/sessionManagement.ts). */
  readonly sessionManagement?: SessionManagementCodecs;
}

/** `session/fork`, `session/archive` / `unarchive`, `session/set_title`, `session/status`. */
export interface SessionManagementCodecs {
  fork(p: NewSessionParams & { sessionId: string }): AdapterCall<SessionSetup>;
  archive(sessionId: string, archived: boolean): AdapterCall<void>;
  setTitle(sessionId: string, title: string): AdapterCall<string>;
  status(sessionId: string): AdapterCall<SessionStatusInfo>;
}

/**
 * Events a permission request implies: a tool-call subject is applied like a `tool_call_update`
 * (both versions). The connection emits these before asking the user.
 */
export function permissionEvents(req: PermissionRequest): SessionEvent[] {
  const s = req.subject;
  if (s?.type !== 'tool_call') return [];
  return [{ sessionId: req.sessionId, kind: 'tool_call', toolCallId: s.toolCallId, fields: s.fields }];
}

/** A fresh adapter for one connection. */
export function createAdapter(version: ProtocolVersion): VersionAdapter {
  return version === 1 ? createV1Adapter() : createV2Adapter();
}
