// The streamable HTTP agent endpoint (src/agents/httpEndpoint.ts) against a small RFD server on
// 127.0.0.1 written here (initialize POSTed and answered 200 with Acp-Connection-Id; the
// connection's messages on an SSE GET; other POSTs 202): messages both ways as NDJSON lines, the
// message size limit, the end of the event stream, the keep-alive rule (a server that sent one and
// then goes silent is dropped),
// and the failures before it opened (401, a refused port) as their sentences.
import * as assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpEndpoint, type HttpEndpointOptions } from '../../../src/agents/httpEndpoint';
import { english } from '../../../src/common/l10n';
import { remoteWords } from '../../../src/ui/remoteWords';

interface Rfd {
  url: string;
  /** The connection's SSE response, once the client opened it. */
  sse: Promise<ServerResponse>;
  posted: unknown[];
  /** Resolves with the next message POSTed from now on. */
  nextPost(): Promise<unknown>;
  close(): Promise<void>;
}

async function rfdServer(opts: { status?: number } = {}): Promise<Rfd> {
  let sse!: (r: ServerResponse) => void;
  const posted: unknown[] = [];
  const waiting: ((m: unknown) => void)[] = [];
  const server = createServer((req, res) => {
    if (opts.status) return void res.writeHead(opts.status).end('no');
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      return sse(res);
    }
    if (req.method === 'DELETE') return void res.writeHead(202).end();
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const m = JSON.parse(body) as { id?: number; method?: string };
      posted.push(m);
      waiting.shift()?.(m);
      if (m.method === 'initialize')
        return void res
          .writeHead(200, { 'content-type': 'application/json', 'acp-connection-id': 'c1' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: 2 } }));
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/acp`,
    sse: new Promise((r) => (sse = r)),
    posted,
    nextPost: () => new Promise((r) => waiting.push(r)),
    close: () => new Promise((r) => server.close(() => r()) && server.closeAllConnections()),
  };
}

function endpoint(url: string, o: Partial<HttpEndpointOptions> = {}): HttpEndpoint {
  return new HttpEndpoint({ url, maxMessageBytes: 64 * 1024, describe: (r) => remoteWords(r, english), prepare: () => Promise.resolve({ headers: {} }), ...o });
}

function nextLine(e: HttpEndpoint): Promise<string> {
  let buf = '';
  return new Promise((resolve) => {
    const on = (chunk: Buffer): void => {
      buf += chunk.toString('utf8');
      const i = buf.indexOf('\n');
      if (i === -1) return;
      e.stream.readable.removeListener('data', on);
      resolve(buf.slice(0, i));
    };
    e.stream.readable.on('data', on);
  });
}

const INIT = `${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 2 } })}\n`;

describe('HttpEndpoint (streamable HTTP)', () => {
  it('POSTs initialize, reads its answer, then the SSE stream; other messages are POSTed', async () => {
    const s = await rfdServer();
    const e = endpoint(s.url);
    const first = nextLine(e);
    e.stream.writable.write(INIT);
    assert.deepEqual(JSON.parse(await first), { jsonrpc: '2.0', id: 0, result: { protocolVersion: 2 } });
    const res = await s.sse;
    const second = nextLine(e);
    res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', method: 'x/note', params: { n: 1 } })}\n\n`);
    assert.equal(JSON.parse(await second).method, 'x/note');
    const post = s.nextPost();
    e.stream.writable.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'y/note', params: {} })}\n`);
    assert.equal(((await post) as { method: string }).method, 'y/note');
    await e.stop(500);
    await s.close();
  });

  it('an SSE event larger than the limit ends the connection, naming the limit', async () => {
    const s = await rfdServer();
    const e = endpoint(s.url);
    e.stream.readable.resume();
    e.stream.writable.write(INIT);
    (await s.sse).write(`data: "${'a'.repeat(200 * 1024)}"\n\n`);
    const exit = await e.closed;
    assert.match(exit.description, /^lost its connection to http:\/\/127\.0\.0\.1:\d+: the server sent a message larger than 65536 bytes/);
    await s.close();
  });

  it('a server that ends its event stream ends the connection, said so', async () => {
    const s = await rfdServer();
    const e = endpoint(s.url);
    e.stream.readable.resume();
    e.stream.writable.write(INIT);
    (await s.sse).end();
    const exit = await e.closed;
    assert.match(exit.description, /^lost its connection to http:\/\/127\.0\.0\.1:\d+: the server closed its event stream$/);
    assert.equal(exit.failedToOpen, undefined);
    await s.close();
  });

  it('a server that sent a keep-alive and then nothing is taken for dead', async () => {
    const s = await rfdServer();
    const e = endpoint(s.url, { deadAfterMs: 200, tickMs: 50 });
    e.stream.readable.resume();
    e.stream.writable.write(INIT);
    (await s.sse).write(':\n\n');
    const exit = await e.closed;
    assert.match(exit.description, /the server stopped answering/);
    await s.close();
  });

  it('401 on initialize and a refused port: failed to open, each with its sentence', async () => {
    const s = await rfdServer({ status: 401 });
    const e = endpoint(s.url);
    e.stream.writable.write(INIT);
    const exit = await e.closed;
    assert.equal(exit.failedToOpen, true);
    assert.match(exit.description, /refused the credentials \(HTTP 401\)/);
    const url = s.url;
    await s.close();
    const r = endpoint(url);
    r.stream.writable.write(INIT);
    assert.match((await r.closed).description, /the connection was refused/);
  });
});
