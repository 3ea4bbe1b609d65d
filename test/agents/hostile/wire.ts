// The hostile agent's end of the wire: raw NDJSON on stdin/stdout, no dependencies. It writes
// whatever it is told to (deep lines, ids of any type, several messages in one write) and reads
// the client's answers, including the `id: null` answers to requests the client could not use.
// Writes wait for `drain`, so hundreds of megabytes do not pile up in this process.

export type Obj = Record<string, unknown>;
export type Id = string | number;

/** The client's answer to one request: its `result` or its `error`. */
export interface Reply {
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

export type RequestHandler = (id: Id, method: string, params: Obj) => void;
export type NotificationHandler = (method: string, params: Obj) => void;

export class Wire {
  private nextId = 1;
  private readonly waiting = new Map<string, (r: Reply) => void>();
  private readonly nullIdWaiters: ((r: Reply) => void)[] = [];
  private pending: Buffer[] = [];
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly onRequest: RequestHandler,
    private readonly onNotification: NotificationHandler,
    onEnd: () => void,
  ) {
    process.stdin.on('data', (chunk: Buffer) => this.read(chunk));
    process.stdin.on('end', onEnd);
  }

  /** Writes `text` as is (one or several lines), in order with every other write. */
  write(text: string): Promise<void> {
    this.chain = this.chain.then(
      () =>
        new Promise<void>((resolve) => {
          if (process.stdout.write(text)) resolve();
          else process.stdout.once('drain', () => resolve());
        }),
    );
    return this.chain;
  }

  line(msg: unknown): string {
    return JSON.stringify(msg) + '\n';
  }
  send(msg: unknown): Promise<void> {
    return this.write(this.line(msg));
  }
  respond(id: Id, result: unknown): void {
    void this.send({ jsonrpc: '2.0', id, result });
  }
  fail(id: Id, code: number, message: string): void {
    void this.send({ jsonrpc: '2.0', id, error: { code, message } });
  }

  /** A new request id and the promise of its answer (the caller writes the request itself). */
  expect(prefix = 'h'): { id: string; reply: Promise<Reply> } {
    const id = `${prefix}-${this.nextId++}`;
    const reply = new Promise<Reply>((resolve) => this.waiting.set(JSON.stringify(id), resolve));
    return { id, reply };
  }

  /** The request's line and the promise of its answer. */
  requestLine(method: string, params: unknown, prefix?: string): { line: string; reply: Promise<Reply> } {
    const { id, reply } = this.expect(prefix);
    return { line: this.line({ jsonrpc: '2.0', id, method, params }), reply };
  }

  request(method: string, params: unknown, prefix?: string): Promise<Reply> {
    const { line, reply } = this.requestLine(method, params, prefix);
    void this.write(line);
    return reply;
  }

  /** The next answer the client sends with `id: null` (to a request it could not use). */
  nextNullIdReply(): Promise<Reply> {
    return new Promise((resolve) => this.nullIdWaiters.push(resolve));
  }

  private read(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.pending.push(chunk.subarray(start, nl));
      const text = Buffer.concat(this.pending).toString('utf8').trim();
      this.pending = [];
      start = nl + 1;
      if (text) this.handle(text);
    }
    if (start < chunk.length) this.pending.push(chunk.subarray(start));
  }

  private handle(text: string): void {
    let msg: Obj;
    try {
      msg = JSON.parse(text) as Obj;
    } catch {
      process.stderr.write(`hostile agent: unparsable line from the client: ${text.slice(0, 200)}\n`);
      return;
    }
    const method = msg.method;
    if (typeof method !== 'string') {
      const answer: Reply = {};
      if ('result' in msg) answer.result = msg.result;
      if (msg.error) answer.error = msg.error as Reply['error'] & object;
      if (msg.id === null) {
        this.nullIdWaiters.shift()?.(answer);
        return;
      }
      const key = JSON.stringify(msg.id);
      this.waiting.get(key)?.(answer);
      this.waiting.delete(key);
      return;
    }
    const params = (msg.params ?? {}) as Obj;
    if (msg.id === undefined) this.onNotification(method, params);
    else this.onRequest(msg.id as Id, method, params);
  }
}

/** `promise`, or `undefined` once `ms` passed without an answer (for answers that must come promptly). */
export function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    void promise.then((v) => {
      clearTimeout(timer);
      resolve(v);
    });
  });
}
