// A streamable HTTP server for the remote agent tests, built on the official ACP SDK's server
// transport (`@agentclientprotocol/sdk` 2.4 experimental/server and experimental/node: the Remote
// Transports RFD's POST/GET(SSE)/DELETE at http://127.0.0.1:<port>/acp), serving an ACP agent
// program (the Demo Agent): one agent process per ACP connection, fed the connection's messages as
// stdin lines, its stdout lines handed back to the SDK, which routes them to the connection's or a
// session's SSE stream. Sessions live on in the agent's state directory.
//
//   node httpBridge.js   with env:
//     BRIDGE_PORT      port to listen on (0: any; the chosen one is printed)
//     BRIDGE_AGENT     the agent script (run with this Node)
//     BRIDGE_TOKEN     every request needs `Authorization: Bearer <token>` (else 401)
//     BRIDGE_DIE_ON    a file: while it holds a text, a client message containing that text
//                      makes the bridge exit at once (SIGKILL), before passing it on
//     BRIDGE_STANDBY   =1: start, then listen only once a line arrives on stdin
//     ACP_DEMO_*       passed to the agent
// Prints JSON lines on stdout: {"ready":true}, {"listening":port}, {"prompt":{"key","text"}} for
// each session/prompt passed on, {"dying":{"key","text"}}.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AcpServer } from '@agentclientprotocol/sdk/experimental/server';
import { createNodeHttpHandler } from '@agentclientprotocol/sdk/experimental/node';

type Message = Record<string, unknown>;
interface MessageStreams {
  readonly readable: ReadableStream<Message>;
  readonly writable: WritableStream<Message>;
}

const say = (o: unknown): void => void process.stdout.write(`${JSON.stringify(o)}\n`);
const token = process.env.BRIDGE_TOKEN;
const dieOn = (): string => {
  try {
    return process.env.BRIDGE_DIE_ON ? readFileSync(process.env.BRIDGE_DIE_ON, 'utf8').trim() : '';
  } catch {
    return '';
  }
};

if (process.env.BRIDGE_STANDBY === '1') {
  say({ ready: true });
  process.stdin.once('data', listen);
} else listen();

function listen(): void {
  const acp = new AcpServer({ createAgent: () => ({ connect: (stream: unknown) => serve(stream as MessageStreams) }) });
  const handle = createNodeHttpHandler(acp);
  const server = createServer((req, res) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/acp') return void res.writeHead(404).end();
    if (token && req.headers.authorization !== `Bearer ${token}`) return void res.writeHead(401, { 'content-type': 'text/plain' }).end('Unauthorized');
    handle(req, res);
  });
  server.listen(Number(process.env.BRIDGE_PORT ?? 0), '127.0.0.1', () => say({ listening: (server.address() as AddressInfo).port }));
}

/** One ACP connection: an agent process of its own. */
function serve(stream: MessageStreams): { closed: Promise<void> } {
  const agent = spawn(process.execPath, [process.env.BRIDGE_AGENT!], { stdio: ['pipe', 'pipe', 'inherit'], env: process.env });
  const writer = stream.writable.getWriter();
  let buf = '';
  agent.stdout.setEncoding('utf8');
  agent.stdout.on('data', (chunk: string) => {
    buf += chunk;
    for (let nl = buf.indexOf('\n'); nl !== -1; nl = buf.indexOf('\n')) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (line.trim()) void writer.write(JSON.parse(line) as Message).catch(() => undefined);
    }
  });
  const closed = new Promise<void>((resolve) => agent.on('exit', () => resolve()));
  void closed.then(() => writer.close().catch(() => undefined));
  void (async () => {
    const reader = stream.readable.getReader();
    for (;;) {
      const r = await reader.read().catch(() => ({ done: true as const, value: undefined }));
      if (r.done) break;
      const m = r.value as { method?: string; params?: { idempotencyKey?: string; prompt?: { text?: string }[] } };
      const text = JSON.stringify(m);
      const prompt = m.method === 'session/prompt' ? { key: m.params?.idempotencyKey, text: m.params?.prompt?.map((b) => b.text ?? '').join('') } : undefined;
      const marker = dieOn();
      if (marker && text.includes(marker)) {
        say({ dying: prompt ?? {} });
        process.kill(process.pid, 'SIGKILL');
        return;
      }
      if (prompt) say({ prompt });
      agent.stdin.write(`${text}\n`);
    }
    agent.stdin.end();
  })();
  return { closed };
}
