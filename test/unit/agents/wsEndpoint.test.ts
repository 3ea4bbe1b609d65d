// The WebSocket agent endpoint (src/agents/wsEndpoint.ts) against a real `ws` server on
// 127.0.0.1: one message per text frame both ways (binary frames ignored, raw line breaks made
// spaces), the message size limit, back-pressure both ways (the socket paused while the
// connection does not read; a server that stops reading ends it), heartbeats (a silent peer is
// noticed), cookies sent back on the next connection, and each failure as its sentence, with the
// secrets a server's words echo masked.
import * as assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { CookieJar, WebSocketEndpoint, type WebSocketEndpointOptions } from '../../../src/agents/wsEndpoint';
import { english } from '../../../src/common/l10n';
import { remoteWords } from '../../../src/ui/remoteWords';
import type { EndpointExit } from '../../../src/agents/agentEndpoint';
import { addKnownSecret } from '../../../src/agents/redaction';

interface Server {
  url: string;
  wss: WebSocketServer;
  next(): Promise<{ ws: WebSocket; headers: Record<string, string | string[] | undefined> }>;
  close(): Promise<void>;
}

async function server(opts: { status?: number; cookie?: string } = {}): Promise<Server> {
  const wss = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    verifyClient: opts.status ? (_info, cb) => cb(false, opts.status) : undefined,
  });
  if (opts.cookie) wss.on('headers', (h) => h.push(`Set-Cookie: ${opts.cookie}`));
  await new Promise((r) => wss.once('listening', r));
  const waiting: ((c: { ws: WebSocket; headers: Record<string, string | string[] | undefined> }) => void)[] = [];
  wss.on('connection', (ws, req) => waiting.shift()?.({ ws, headers: req.headers }));
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/acp`,
    wss,
    next: () => new Promise((r) => waiting.push(r)),
    close: () =>
      new Promise((r) => {
        for (const c of wss.clients) c.terminate();
        wss.close(() => r());
      }),
  };
}

function endpoint(url: string, o: Partial<WebSocketEndpointOptions> = {}): WebSocketEndpoint {
  return new WebSocketEndpoint({
    url,
    maxMessageBytes: 64 * 1024,
    describe: (r) => remoteWords(r, english),
    prepare: () => Promise.resolve({ headers: {} }),
    ...o,
  });
}

function lines(e: WebSocketEndpoint, n: number): Promise<string[]> {
  const out: string[] = [];
  let buf = '';
  return new Promise((resolve) => {
    const on = (chunk: Buffer): void => {
      buf += chunk.toString('utf8');
      let i: number;
      while ((i = buf.indexOf('\n')) !== -1) {
        out.push(buf.slice(0, i));
        buf = buf.slice(i + 1);
      }
      if (out.length >= n) {
        e.stream.readable.removeListener('data', on);
        resolve(out);
      }
    };
    e.stream.readable.on('data', on);
  });
}

/** Resolves once the endpoint's side is open too (the server's `connection` comes first). */
async function opened(e: WebSocketEndpoint, ws: WebSocket): Promise<void> {
  const got = lines(e, 1);
  ws.send('{"jsonrpc":"2.0","method":"hello"}');
  await got;
}

const within = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms))]);

describe('WebSocket agent endpoint', function () {
  this.timeout(10000);
  let s: Server;
  let e: WebSocketEndpoint | undefined;
  afterEach(async () => {
    e?.kill();
    e = undefined;
    await s?.close();
  });

  it('sends each NDJSON line as one text frame, and reads each text frame as one line (binary ignored, line breaks made spaces)', async () => {
    s = await server();
    const conn = s.next();
    e = endpoint(s.url);
    e.stream.writable.write('{"jsonrpc":"2.0","id":1,"method":"initialize"}\n{"jsonrpc":"2.0","method":"a"}\n'); // before it opened
    const { ws } = await conn;
    const frames: string[] = [];
    ws.on('message', (d, bin) => frames.push(`${bin ? 'bin' : 'text'}:${String(d)}`));
    const got = lines(e, 2);
    ws.send(Buffer.from([1, 2, 3]), { binary: true });
    ws.send('{\n  "jsonrpc": "2.0",\r\n  "id": 1,\n  "result": {}\n}');
    ws.send('{"jsonrpc":"2.0","method":"b","params":{"t":"x\\ny"}}');
    assert.deepEqual(await got, ['{   "jsonrpc": "2.0",    "id": 1,   "result": {} }', '{"jsonrpc":"2.0","method":"b","params":{"t":"x\\ny"}}']);
    e.stream.writable.write('{"jsonrpc":"2.0",');
    e.stream.writable.write('"method":"c"}\n');
    await within(
      (async () => {
        while (frames.length < 3) await new Promise((r) => setTimeout(r, 10));
      })(),
      2000,
      'frames',
    );
    assert.deepEqual(frames, [
      'text:{"jsonrpc":"2.0","id":1,"method":"initialize"}',
      'text:{"jsonrpc":"2.0","method":"a"}',
      'text:{"jsonrpc":"2.0","method":"c"}',
    ]);
  });

  it('ends the connection on a message larger than the limit, saying so', async () => {
    s = await server();
    const conn = s.next();
    e = endpoint(s.url, { maxMessageBytes: 1024 });
    (await conn).ws.send(`"${'x'.repeat(4096)}"`);
    const exit = await within(e.closed, 3000, 'close');
    assert.match(
      exit.description,
      /^lost its connection to ws:\/\/127\.0\.0\.1:\d+: the server sent a message larger than 1024 bytes \(the acp\.maxLineBytes limit\)$/,
    );
  });

  it('pauses the socket while the connection does not read, and resumes when it does', async () => {
    s = await server();
    const conn = s.next();
    e = endpoint(s.url, { readBufferBytes: 16 * 1024 });
    const { ws } = await conn;
    const line = `{"jsonrpc":"2.0","method":"x","params":{"p":"${'y'.repeat(1000)}"}}`;
    for (let i = 0; i < 2000; i++) ws.send(line);
    const readable = e.stream.readable as NodeJS.ReadableStream & { readableLength: number };
    await new Promise((r) => setTimeout(r, 300));
    const socket = (e as unknown as { socket: WebSocket }).socket;
    assert.equal(socket.isPaused, true, 'the socket is paused');
    assert.ok(readable.readableLength < 64 * 1024, `at most about the read buffer is held: ${readable.readableLength}`);
    const all = await within(lines(e, 2000), 5000, 'all lines');
    assert.equal(all.length, 2000);
  });

  it('ends the connection when the server stops reading and too much waits to be sent', async () => {
    s = await server();
    const conn = s.next();
    e = endpoint(s.url, { maxMessageBytes: 64 * 1024, sendBufferBytes: 256 * 1024, tickMs: 20 });
    const { ws } = await conn;
    (ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const line = `"${'z'.repeat(60 * 1024)}"\n`;
    let exit: EndpointExit | undefined;
    void e.closed.then((x) => (exit = x));
    for (let i = 0; i < 4000 && !exit; i++) {
      e.stream.writable.write(line);
      if (i % 50 === 0) await new Promise((r) => setTimeout(r, 5));
    }
    const x = await within(e.closed, 5000, 'close');
    assert.match(x.description, /the server stopped reading \(\d+ MiB waiting to be sent\)$/);
  });

  it('ends the connection once more than 32 MiB wait, checked on every write (not only on the tick)', async () => {
    s = await server();
    const conn = s.next();
    // The default limit (32 MiB), whatever the largest message accepted; the tick never comes.
    e = endpoint(s.url, { maxMessageBytes: 64 * 1024 * 1024, tickMs: 3_600_000 });
    const { ws } = await conn;
    await opened(e, ws);
    (ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const line = `"${'z'.repeat(64 * 1024 - 3)}"\n`;
    let ended = false;
    void e.closed.then(() => (ended = true));
    let peak = 0;
    for (let i = 0; i < 1600 && !ended; i++) {
      peak = Math.max(peak, e.backlog);
      e.stream.writable.write(line);
      if (i % 64 === 0) await new Promise((r) => setImmediate(r));
    }
    const x = await within(e.closed, 3000, 'close');
    assert.match(x.description, /the server stopped reading \(32 MiB waiting to be sent\)$/);
    assert.ok(peak <= 32 * 1024 * 1024 + 64 * 1024, `waited at most the limit and one message: ${peak}`);
  });

  it('masks the secrets a server echoes in what it says (the sentence people read)', async () => {
    addKnownSecret('s3cr3t-header-value');
    s = await server();
    const conn = s.next();
    e = endpoint(s.url);
    (await conn).ws.close(4001, 'refused s3cr3t-header-value, "Bearer abcdefgh12345678"');
    const exit = await within(e.closed, 3000, 'close');
    assert.match(exit.description, /: the server closed it \(code 4001, "refused \*\*\*, "Bearer \*\*\*""\)$/);
    assert.ok(!/s3cr3t|abcdefgh/.test(exit.description + exit.detail), exit.description);
  });

  it('notices a peer that stops answering pings', async () => {
    s = await server();
    const conn = s.next();
    e = endpoint(s.url, { pingIntervalMs: 30, deadAfterMs: 200, tickMs: 20 });
    const { ws } = await conn;
    (ws as unknown as { _socket: { pause(): void } })._socket.pause(); // reads nothing: no pongs
    const started = Date.now();
    const exit = await within(e.closed, 3000, 'close');
    assert.match(exit.description, /the server stopped answering \(no reply to pings for 0 s\)$/);
    assert.ok(Date.now() - started < 1000);
  });

  it('keeps a peer that answers pings', async () => {
    s = await server();
    const conn = s.next();
    e = endpoint(s.url, { pingIntervalMs: 20, deadAfterMs: 150, tickMs: 20 });
    await conn;
    const r = await Promise.race([e.closed, new Promise((r) => setTimeout(() => r('open'), 600))]);
    assert.equal(r, 'open');
  });

  it('says the server closed it, with the code and reason', async () => {
    s = await server();
    const conn = s.next();
    e = endpoint(s.url);
    (await conn).ws.close(1001, 'going away');
    const exit = await within(e.closed, 3000, 'close');
    assert.match(exit.description, /^lost its connection to ws:\/\/127\.0\.0\.1:\d+: the server closed it \(code 1001, "going away"\)$/);
    assert.equal(exit.failedToOpen, undefined);
  });

  it('says the server refused the credentials on a 401', async () => {
    s = await server({ status: 401 });
    e = endpoint(s.url);
    const exit = await within(e.closed, 3000, 'close');
    assert.match(exit.description, /could not connect to ws:\/\/127\.0\.0\.1:\d+: the server refused the credentials \(HTTP 401\)/);
    assert.match(exit.detail, /^ Check the "headers" .*ACP: Set Agent Secret…/); // what to do, after the sentence
    assert.equal(exit.failedToOpen, true);
  });

  it('says the connection was refused when nothing listens', async () => {
    s = await server();
    const url = s.url;
    await s.close();
    e = endpoint(url);
    const exit = await within(e.closed, 3000, 'close');
    assert.match(exit.description, /could not connect to ws:\/\/127\.0\.0\.1:\d+: the connection was refused \(nothing listens on port \d+\)/);
  });

  it('sends the configured headers, and the cookies the server set on the previous connection', async () => {
    s = await server({ cookie: 'affinity=backend-7; Path=/; HttpOnly' });
    const jar = new CookieJar();
    let conn = s.next();
    e = endpoint(s.url, { cookies: jar, prepare: () => Promise.resolve({ headers: { Authorization: 'Bearer t0ken-value' } }) });
    let c = await conn;
    await opened(e, c.ws);
    assert.equal(c.headers.authorization, 'Bearer t0ken-value');
    assert.equal(c.headers.cookie, undefined);
    e.kill();
    conn = s.next();
    e = endpoint(s.url, { cookies: jar });
    c = await conn;
    assert.equal(c.headers.cookie, 'affinity=backend-7');
  });

  it('never connects when preparing refuses (a missing secret, a declined host), and says why', async () => {
    s = await server();
    let connected = false;
    s.wss.on('connection', () => (connected = true));
    e = endpoint(s.url, {
      prepare: () => Promise.resolve({ refused: { code: 'secret-missing', data: { secret: 't' } } }),
    });
    const exit = await within(e.closed, 3000, 'close');
    assert.equal(exit.description, 'could not connect: the secret "t" its headers name is not set (run "ACP: Set Agent Secret…" to store it)');
    assert.equal(exit.failedToOpen, true);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(connected, false);
  });

  it('stops gracefully: a close frame, then closed', async () => {
    s = await server();
    const conn = s.next();
    e = endpoint(s.url);
    const { ws } = await conn;
    await opened(e, ws);
    const code = new Promise<number>((r) => ws.on('close', (c) => r(c)));
    await e.stop(1000);
    assert.equal(await within(code, 2000, 'close frame'), 1000);
  });
});
