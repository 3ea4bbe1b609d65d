// connect(): an ACP connection over a MessageStream (an agent's stdio, a socket, an in-memory
// pair; transport/messageStream.ts). Negotiates the version (negotiate.ts), then
// implements AcpConnection (api.ts) through that version's adapter:
//   - `session/update` → `handlers.onEvent`, synchronously and in arrival order (never awaited);
//   - `session/request_permission` → `handlers.requestPermission`; `cancel(sessionId)` answers
//     that session's pending permission requests `cancelled`;
//   - `elicitation/create` → `handlers.elicit` (advertised only then), answered `cancel` like a
//     permission when withdrawn, cancelled or closed; `elicitation/complete` → the handler;
//   - v1 only: `fs/*` and `terminal/*` → the handlers (`-32601` when a handler is missing);
//   - every other agent → client request gets `-32601` (transport), notifications are ignored.
import { CancellationTokenSource, ResponseError, type CancellationToken } from 'vscode-jsonrpc/node';
import type {
  AcpConnection,
  ClientHandlers,
  ConnectOptions,
  Event,
  ListSessionsParams,
  NewSessionParams,
  SessionListEntry,
  SessionSetup,
  SessionStatusInfo,
  SteerOutcome,
} from './api';
import { steeringAdvertised } from './common/steering';
import { permissionEvents, type AdapterCall, type ClientServiceCodecs, type ServiceCodec, type SessionManagementCodecs, type VersionAdapter } from './adapter';
import type { AgentCapabilities, AgentInfo, AuthMethod, ConfigOption, ContentBlock, PermissionOutcome, ProtocolVersion, SessionEvent } from './domain';
import type { ElicitationResponse } from './elicitation';
import { negotiate, type Negotiated } from './negotiate';
import { ConnectionClosedError, ErrorCodes, RpcError } from './transport/errors';
import type { MessageStream } from './transport/messageStream';
import { RpcConnection } from './transport/rpcConnection';
import { toWireError, unknownUpdateEvent } from './unknownUpdate';

export { IncompatibleAgentError, InitializeTimeoutError } from './negotiate';
export { ConnectionClosedError, RpcError, isAuthRequired } from './transport/errors';
export { memoryStreamPair, type MemoryStreamPair, type MessageStream } from './transport/messageStream';
export { unknownUpdateEvent } from './unknownUpdate';

/**
 * Negotiates a protocol version with the agent at the other end of `stream` (reads its NDJSON from
 * `stream.readable`, writes to `stream.writable`) and returns the connection. Rejects with
 * IncompatibleAgentError, InitializeTimeoutError, ConnectionClosedError (the stream ended: the
 * agent exited, the socket dropped) or RpcError (initialize failed); the transport is disposed then.
 */
export async function connect(stream: MessageStream, options: ConnectOptions): Promise<AcpConnection> {
  const rpc = new RpcConnection(stream, { maxLineBytes: options.maxLineBytes, logger: options.logger });
  rpc.listen();
  const h = options.handlers;
  try {
    const negotiated = await negotiate(rpc, {
      protocol: options.protocol,
      timeoutMs: options.initializeTimeoutMs,
      logger: options.logger,
      init: {
        clientInfo: options.clientInfo,
        unstablePlans: options.unstablePlans ?? true,
        fs: { readTextFile: typeof h.readTextFile === 'function', writeTextFile: typeof h.writeTextFile === 'function' },
        terminal: h.terminal !== undefined,
        elicitation: typeof h.elicit === 'function',
      },
    });
    return new AcpClientConnection(rpc, negotiated, options);
  } catch (err) {
    rpc.dispose();
    throw err;
  }
}

interface InFlightPermission {
  cancel(): void;
}
/** The pending-set key of request-scoped elicitations (no session cancel reaches them; a close does). */
const REQUEST_SCOPED = '\u0000request';

class AcpClientConnection implements AcpConnection {
  readonly version: ProtocolVersion;
  readonly agentInfo: AgentInfo | undefined;
  readonly capabilities: AgentCapabilities;
  readonly authMethods: AuthMethod[];
  readonly steering: boolean;
  private readonly adapter: VersionAdapter;
  private readonly handlers: ClientHandlers;
  private readonly pendingPermissions = new Map<string, Set<InFlightPermission>>();
  private readonly closeListeners = new Set<(e: { error?: Error }) => void>();
  private closed: { error?: Error } | undefined;

  constructor(
    private readonly rpc: RpcConnection,
    negotiated: Negotiated,
    private readonly options: ConnectOptions,
  ) {
    const { adapter, info } = negotiated;
    this.adapter = adapter;
    this.handlers = options.handlers;
    this.version = adapter.version;
    this.agentInfo = info.agentInfo;
    this.capabilities = info.capabilities;
    this.authMethods = info.authMethods;
    this.steering = steeringAdvertised(info.raw);
    const m = adapter.methods;
    rpc.onNotification(m.sessionUpdate, (p) => this.onSessionUpdate(p));
    rpc.onRequest(m.requestPermission, (p, token) => this.onPermissionRequest(p, token));
    if (this.handlers.elicit) {
      rpc.onRequest(m.elicitationCreate, (p, token) => this.onElicitation(p, token));
      rpc.onNotification(m.elicitationComplete, (p) => {
        const id = adapter.decodeElicitationComplete(p);
        if (id === undefined) this.log('warn', 'Malformed elicitation/complete (no elicitationId); ignored');
        else this.handlers.onElicitationComplete?.(id);
      });
    }
    if (adapter.clientServices) this.registerClientServices(adapter.clientServices);
    if (rpc.isClosed) this.onRpcClosed({});
    else rpc.onClose((e) => this.onRpcClosed(e));
  }

  /** Fires once; a listener added after the close is called on the next microtask. */
  readonly onClose: Event<{ error?: Error }> = (listener) => {
    if (this.closed) {
      const e = this.closed;
      queueMicrotask(() => listener(e));
      return { dispose: () => undefined };
    }
    this.closeListeners.add(listener);
    return {
      dispose: () => {
        this.closeListeners.delete(listener);
      },
    };
  };

  authenticate(methodId: string): Promise<void> {
    return this.call(this.adapter.authenticate(methodId));
  }
  logout(): Promise<void> {
    return this.call(this.adapter.logout());
  }
  newSession(p: NewSessionParams): Promise<SessionSetup> {
    return this.call(this.adapter.newSession(p));
  }
  resumeSession(p: NewSessionParams & { sessionId: string; replay: boolean }): Promise<SessionSetup> {
    return this.call(this.adapter.resumeSession(p));
  }
  listSessions(p?: ListSessionsParams): Promise<{ sessions: SessionListEntry[]; nextCursor?: string | null }> {
    return this.call(this.adapter.listSessions(p));
  }
  forkSession(p: NewSessionParams & { sessionId: string }): Promise<SessionSetup> {
    return this.managed('fork', (c) => c.fork(p));
  }
  setSessionArchived(sessionId: string, archived: boolean): Promise<void> {
    return this.managed('archive', (c) => c.archive(sessionId, archived));
  }
  setSessionTitle(sessionId: string, title: string): Promise<string> {
    return this.managed('title', (c) => c.setTitle(sessionId, title));
  }
  sessionStatus(sessionId: string): Promise<SessionStatusInfo> {
    return this.managed('status', (c) => c.status(sessionId));
  }
  /** The session management calls, only for what the agent advertised (never sent unasked). */
  private async managed<T>(cap: 'fork' | 'archive' | 'title' | 'status', call: (c: SessionManagementCodecs) => AdapterCall<T>): Promise<T> {
    const codecs = this.adapter.sessionManagement;
    if (!codecs || !this.capabilities[cap]) throw new Error(`The agent does not support session ${cap} (it did not advertise it).`);
    return this.call(call(codecs));
  }
  closeSession(sessionId: string): Promise<void> {
    return this.call(this.adapter.closeSession(sessionId));
  }
  deleteSession(sessionId: string): Promise<void> {
    return this.call(this.adapter.deleteSession(sessionId));
  }
  prompt(sessionId: string, prompt: ContentBlock[], opts?: { idempotencyKey?: string }): Promise<{ messageId?: string; stopReason?: string }> {
    return this.call(this.adapter.prompt(sessionId, prompt, opts?.idempotencyKey));
  }
  setConfigOption(sessionId: string, configId: string, value: string | boolean): Promise<ConfigOption[]> {
    return this.call(this.adapter.setConfigOption(sessionId, configId, value));
  }

  steer(sessionId: string, blocks: readonly ContentBlock[]): Promise<SteerOutcome> {
    return this.call(this.adapter.steer(sessionId, blocks)).catch((err: unknown): SteerOutcome => ({ kind: 'failed', reason: errorText(err) }));
  }

  cancel(sessionId: string): void {
    const n = this.adapter.cancel(sessionId);
    this.rpc.sendNotification(n.method, n.params);
    const pending = this.pendingPermissions.get(sessionId);
    if (pending) for (const p of [...pending]) p.cancel();
  }

  cancelTerminal(sessionId: string, terminalId: string): Promise<void> {
    const call = this.adapter.cancelTerminal?.(sessionId, terminalId);
    return call ? this.call(call) : Promise.reject(new Error(`ACP v${this.version} has no terminal/cancel.`));
  }

  cancelToolCall(sessionId: string, toolCallId: string): Promise<void> {
    const call = this.adapter.cancelToolCall?.(sessionId, toolCallId);
    return call ? this.call(call) : Promise.reject(new Error(`ACP v${this.version} has no tool_call/cancel.`));
  }

  dispose(): void {
    this.rpc.dispose();
  }

  // ---------------------------------------------------------------- client → agent

  /** Emits `eventsBefore`, sends, decodes; turns a failure into the call's `fail` events. */
  private call<R>(c: AdapterCall<R>): Promise<R> {
    this.emit(c.eventsBefore);
    return this.rpc.sendRequest(c.method, c.params).then(
      (result) => {
        let decoded: { value: R; events: SessionEvent[] };
        try {
          decoded = c.decode(result);
        } catch (err) {
          this.log('warn', `${c.method}: unexpected result: ${errorText(err)}`);
          if (c.fail) this.emit(c.fail({ code: ErrorCodes.InternalError, message: errorText(err) }));
          throw err;
        }
        this.emit(decoded.events);
        return decoded.value;
      },
      (err: unknown) => {
        this.logFailure(c.method, err);
        if (c.fail) this.emit(c.fail(toWireError(err)));
        throw err;
      },
    );
  }

  // ---------------------------------------------------------------- agent → client

  private onSessionUpdate(params: unknown): void {
    let events: SessionEvent[];
    try {
      events = this.adapter.decodeUpdate(params);
    } catch (err) {
      // A known kind that is malformed is rejected (not applied), reported, and kept whole with
      // the problem, so it shows as rejected rather than as an update we do not know.
      this.log('warn', `Rejected a malformed session/update: ${errorText(err)}`);
      events = unknownUpdateEvent(params, errorText(err));
    }
    this.emit(events);
  }

  private async onPermissionRequest(params: unknown, token: CancellationToken): Promise<unknown> {
    let req;
    try {
      req = this.adapter.decodePermissionRequest(params);
    } catch (err) {
      throw new ResponseError(ErrorCodes.InvalidParams, errorText(err));
    }
    this.emit(permissionEvents(req));
    const outcome = await this.askUser<PermissionOutcome>(req.sessionId, token, (uiToken) => this.handlers.requestPermission(req, uiToken), {
      outcome: 'cancelled',
    });
    return this.adapter.encodePermissionOutcome(outcome);
  }

  private async onElicitation(params: unknown, token: CancellationToken): Promise<unknown> {
    let req;
    try {
      req = this.adapter.decodeElicitation(params);
    } catch (err) {
      throw new ResponseError(ErrorCodes.InvalidParams, errorText(err));
    }
    const key = req.scope.type === 'session' ? req.scope.sessionId : REQUEST_SCOPED;
    const response = await this.askUser<ElicitationResponse>(key, token, (uiToken) => this.handlers.elicit!(req, uiToken), { action: 'cancel' });
    return this.adapter.encodeElicitationResponse(response);
  }

  /**
   * Runs a permission or elicitation UI with a token that is cancelled when the agent withdraws the
   * request (`$/cancel_request` → answered -32800), when the client cancels the session (answered
   * `cancelled`) or when the connection closes. A failing UI answers `cancelled`, never approval.
   */
  private askUser<T>(sessionId: string, agentToken: CancellationToken, ask: (t: CancellationToken) => Promise<T>, cancelled: T): Promise<T> {
    if (agentToken.isCancellationRequested) return Promise.reject(requestCancelled());
    const ui = new CancellationTokenSource();
    const set = this.pendingPermissions.get(sessionId) ?? new Set<InFlightPermission>();
    this.pendingPermissions.set(sessionId, set);
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const finish = (cancelUi: boolean, settle: () => void): void => {
        if (settled) return;
        settled = true;
        set.delete(entry);
        if (set.size === 0 && this.pendingPermissions.get(sessionId) === set) this.pendingPermissions.delete(sessionId);
        withdrawn.dispose();
        if (cancelUi) ui.cancel();
        ui.dispose();
        settle();
      };
      const entry: InFlightPermission = { cancel: () => finish(true, () => resolve(cancelled)) };
      set.add(entry);
      const withdrawn = agentToken.onCancellationRequested(() => finish(true, () => reject(requestCancelled())));
      let asked: Promise<T>;
      try {
        asked = ask(ui.token);
      } catch (err) {
        asked = Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
      asked.then(
        (outcome) => finish(false, () => resolve(outcome)),
        (err: unknown) => {
          this.log('error', `Prompt for the user failed; answering "cancelled": ${errorText(err)}`);
          finish(false, () => resolve(cancelled));
        },
      );
    });
  }

  private registerClientServices(codecs: ClientServiceCodecs): void {
    const h = this.handlers;
    const t = h.terminal;
    this.serve(codecs.readTextFile, h.readTextFile && ((p) => h.readTextFile!(p)));
    this.serve(codecs.writeTextFile, h.writeTextFile && ((p) => h.writeTextFile!(p)));
    this.serve(codecs.terminalCreate, t && ((p) => t.create(p)));
    this.serve(codecs.terminalOutput, t && ((p) => t.output(p)));
    this.serve(codecs.terminalWaitForExit, t && ((p) => t.waitForExit(p)));
    this.serve(codecs.terminalKill, t && ((p) => t.kill(p)));
    this.serve(codecs.terminalRelease, t && ((p) => t.release(p)));
  }

  private serve<P, R>(codec: ServiceCodec<P, R>, fn: ((p: P) => Promise<R>) | undefined): void {
    this.rpc.onRequest(codec.method, async (raw) => {
      if (!fn) throw new ResponseError(ErrorCodes.MethodNotFound, `Method not found: ${codec.method}`);
      let params: P;
      try {
        params = codec.decodeParams(raw);
      } catch (err) {
        throw new ResponseError(ErrorCodes.InvalidParams, errorText(err));
      }
      try {
        return codec.encodeResult(await fn(params));
      } catch (err) {
        if (err instanceof RpcError) throw new ResponseError(err.code, err.message, err.data);
        this.log('warn', `${codec.method} failed: ${errorText(err)}`);
        throw new ResponseError(ErrorCodes.InternalError, errorText(err));
      }
    });
  }

  // ---------------------------------------------------------------- plumbing

  private emit(events: readonly SessionEvent[]): void {
    for (const e of events) {
      try {
        this.handlers.onEvent(e);
      } catch (err) {
        this.log('error', `onEvent(${e.kind}) threw: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      }
    }
  }

  private onRpcClosed(e: { error?: Error }): void {
    if (this.closed) return;
    this.closed = e;
    for (const set of this.pendingPermissions.values()) for (const p of [...set]) p.cancel();
    for (const l of [...this.closeListeners]) {
      try {
        l(e);
      } catch (err) {
        this.log('error', `onClose listener threw: ${errorText(err)}`);
      }
    }
    this.closeListeners.clear();
  }

  private logFailure(method: string, err: unknown): void {
    if (err instanceof RpcError && err.code === ErrorCodes.RequestCancelled) return; // cancellations are silent
    if (err instanceof ConnectionClosedError) {
      this.log('debug', `${method}: ${err.message}`);
      return;
    }
    this.log('warn', `${method} failed: ${errorText(err)}`);
  }

  private log(level: 'debug' | 'info' | 'warn' | 'error', message: string): void {
    this.options.logger?.log(level, message);
  }
}

function requestCancelled(): ResponseError<void> {
  return new ResponseError(ErrorCodes.RequestCancelled, 'Request cancelled');
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
