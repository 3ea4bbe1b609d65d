// A fake AgentEndpoint for the supervisor tests: no process. Its agent end is an in-process ACP v2
// agent (FakeAgent) over memoryStreamPair(); the test ends it as a crash (`drop`) or lets the
// supervisor stop or kill it, and says how it ended (the EndpointExit the supervisor words).
// FakeEndpointHost is the TestHost (fake time, one log) opening FakeEndpoints.
//
// FakeAgent: `initialize` → v2; `session/new` → fake-1, fake-2, …; `session/resume` → {};
// `session/prompt` → accepted, then running, a chunk "Hello", idle end_turn — unless `hold` is set
// (never answered: the outcome stays unknown until a crash). Every message it gets is kept. With
// `version` 1 it answers `initialize` as a v1 agent (`session/load` → null), so the client serves
// fs and terminal requests. A test makes it speak on its own: `update` (a session/update) and
// `request` (any agent → client request, resolving with the client's answer).
import type { AgentDefinition } from '../../../../src/agents/agentConfig';
import type { AgentEndpoint, EndpointExit } from '../../../../src/agents/agentEndpoint';
import { memoryStreamPair, type MessageStream } from '../../../../src/protocol/transport/messageStream';
import { TestHost } from './supervisorHost';

type Msg = Record<string, unknown>;

export class FakeAgent {
  /** Every message the client sent, in order. */
  readonly received: Msg[] = [];
  /** Prompts are accepted but never answered. */
  hold = false;
  /** When set, `initialize` is answered with this JSON-RPC error. */
  initializeError: { code: number; message: string; data?: unknown } | undefined;
  private sessions = 0;
  private nextId = 1;
  private buf = '';
  private waiters: { method: string; resolve: (m: Msg) => void }[] = [];
  private readonly answers = new Map<unknown, (m: Msg) => void>();

  constructor(
    private readonly end: MessageStream,
    private readonly version: 1 | 2 = 2,
  ) {
    end.readable.setEncoding('utf8');
    end.readable.on('data', (chunk: string) => {
      this.buf += chunk;
      for (let nl = this.buf.indexOf('\n'); nl !== -1; nl = this.buf.indexOf('\n')) {
        const line = this.buf.slice(0, nl).trim();
        this.buf = this.buf.slice(nl + 1);
        if (line) this.handle(JSON.parse(line) as Msg);
      }
    });
  }

  /** Requests (or notifications) of `method` received so far. */
  got(method: string): Msg[] {
    return this.received.filter((m) => m.method === method);
  }

  /** The first `method` message received (already, or the next one). */
  waitFor(method: string): Promise<Msg> {
    const seen = this.got(method)[0];
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ method, resolve }));
  }

  /** Sends a request to the client; resolves with its answer (`result` or `error`). */
  request(method: string, params: Msg): Promise<Msg> {
    const id = `agent-${this.nextId++}`;
    const answered = new Promise<Msg>((resolve) => this.answers.set(id, resolve));
    this.send({ id, method, params });
    return answered;
  }

  /** Sends a session/update notification. */
  update(sessionId: string, update: Msg): void {
    this.send({ method: 'session/update', params: { sessionId, update } });
  }

  private send(m: Msg): void {
    this.end.writable.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
  }

  private handle(m: Msg): void {
    this.received.push(m);
    for (const w of this.waiters.filter((x) => x.method === m.method)) {
      this.waiters.splice(this.waiters.indexOf(w), 1);
      w.resolve(m);
    }
    const { id, method } = m;
    const params = (m.params ?? {}) as Msg;
    if (id !== undefined && method === undefined) {
      this.answers.get(id)?.(m);
      this.answers.delete(id);
      return;
    }
    if (id === undefined || typeof method !== 'string') return; // notifications
    const reply = (result: unknown): void => this.send({ id, result });
    switch (method) {
      case 'initialize':
        if (this.initializeError) return this.send({ id, error: this.initializeError });
        if (this.version === 1)
          return reply({ protocolVersion: 1, agentCapabilities: { loadSession: true }, authMethods: [], agentInfo: { name: 'fake-v1', version: '1.0.0' } });
        return reply({
          protocolVersion: 2,
          info: { name: 'fake-v2', version: '2.0.0' },
          capabilities: { session: { prompt: {} } },
          authMethods: [],
        });
      case 'session/new':
        return reply(this.version === 1 ? { sessionId: `fake-${++this.sessions}` } : { sessionId: `fake-${++this.sessions}`, configOptions: [] });
      case 'session/load':
        return this.version === 1 ? reply(null) : this.send({ id, error: { code: -32601, message: `Method not found: ${method}` } });
      case 'session/resume':
      case 'session/close':
        return reply({});
      case 'session/prompt': {
        if (this.hold) return;
        reply({});
        const sessionId = String(params.sessionId);
        this.update(sessionId, { sessionUpdate: 'state_update', state: 'running' });
        this.update(sessionId, { sessionUpdate: 'agent_message_chunk', messageId: 'agent-msg-1', content: { type: 'text', text: 'Hello' } });
        this.update(sessionId, { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' });
        return;
      }
      default:
        return this.send({ id, error: { code: -32601, message: `Method not found: ${method}` } });
    }
  }
}

export class FakeEndpoint implements AgentEndpoint {
  readonly stream: MessageStream;
  readonly closed: Promise<EndpointExit>;
  readonly agent: FakeAgent;
  /** How the supervisor ended it, if it did. */
  endedBy: 'stop' | 'kill' | undefined;
  private resolveClosed!: (e: EndpointExit) => void;
  private readonly agentEnd: MessageStream;

  constructor(version: 1 | 2 = 2) {
    const pair = memoryStreamPair();
    this.stream = pair.client;
    this.agentEnd = pair.agent;
    this.agent = new FakeAgent(pair.agent, version);
    let done = false;
    this.closed = new Promise((resolve) => {
      this.resolveClosed = (e) => {
        if (done) return;
        done = true;
        resolve(e);
      };
    });
    // The client ending its side (stop, or the connection disposed) ends the agent.
    pair.agent.readable.on('end', () => this.end({ description: 'was stopped', detail: '' }));
  }

  /** The agent goes away on its own (a crash, a dropped connection). */
  drop(exit: EndpointExit = { description: 'lost its connection', detail: ' (the fake agent went away)' }): void {
    this.end(exit);
  }

  stop(): Promise<EndpointExit> {
    this.endedBy ??= 'stop';
    this.stream.writable.end();
    return this.closed;
  }

  kill(): void {
    this.endedBy ??= 'kill';
    this.end({ description: 'was killed', detail: '' });
  }

  private end(exit: EndpointExit): void {
    this.agentEnd.writable.end();
    this.resolveClosed(exit);
  }
}

/** A TestHost whose agents run as FakeEndpoints (fake time, the same log to wait on). */
export class FakeEndpointHost extends TestHost {
  readonly endpoints: FakeEndpoint[] = [];
  /** Called with each endpoint as it opens (e.g. to make it fail to open). */
  onOpen: ((e: FakeEndpoint) => void) | undefined;
  /** The protocol version the agents of endpoints opened from now on speak. */
  agentVersion: 1 | 2 = 2;

  override openEndpoint(_def: AgentDefinition): FakeEndpoint {
    const e = new FakeEndpoint(this.agentVersion);
    this.endpoints.push(e);
    this.onOpen?.(e);
    return e;
  }

  /** The endpoint the supervisor runs now (the newest opened). */
  get endpoint(): FakeEndpoint {
    const e = this.endpoints[this.endpoints.length - 1];
    if (!e) throw new Error('no endpoint was opened');
    return e;
  }

  override cleanup(): Promise<string[]> {
    for (const e of this.endpoints) e.kill();
    return super.cleanup();
  }
}
