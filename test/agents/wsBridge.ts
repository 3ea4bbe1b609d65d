// A stdio ↔ WebSocket bridge for the remote agent tests: serves an ACP agent program (the Demo
// Agent) at ws://127.0.0.1:<port>/acp, one agent process per WebSocket connection (as the Remote
// Transports RFD's servers do: a connection is an agent task; sessions live on in the agent's
// state directory). Each text frame goes to the agent's stdin as one line; each stdout line goes
// back as one text frame.
//
//   node wsBridge.js   with env:
//     BRIDGE_PORT      port to listen on (0: any; the chosen one is printed)
//     BRIDGE_AGENT     the agent script (run with this Node)
//     BRIDGE_TOKEN     the upgrade needs `Authorization: Bearer <token>` (else 401)
//     BRIDGE_DIE_ON    a file: while it holds a text, a client message containing that text
//                      makes the bridge exit at once (SIGKILL), before passing it on (a server
//                      dying with the prompt unanswered)
//     BRIDGE_STANDBY   =1: start, then listen only once a line arrives on stdin (so a test can
//                      have the next bridge ready and take the port the moment the last one dies)
//     BRIDGE_TLS_CERT, BRIDGE_TLS_KEY   PEM files: serve wss:// with them (a self-signed one in tests)
//     BRIDGE_SILENT    =1: accept the WebSocket, never answer anything (no agent is started)
//     BRIDGE_HUGE_ON   a file: while it holds a text, a client message containing it is answered by
//                      one text frame of BRIDGE_HUGE_BYTES (default 100 MiB) instead of being passed on
//     BRIDGE_FREEZE_ON a file: likewise, the connection is frozen: the socket is no longer read (no
//                      pongs, no messages) and nothing more is sent, the TCP connection stays open
//     ACP_DEMO_*       passed to the agent
// Prints JSON lines on stdout: {"ready":true}, {"listening":port}, {"prompt":{"key","text"}} for
// each session/prompt passed on, {"dying":{"key","text"}}, {"huge":bytes}, {"frozen":true},
// {"silent":true} for each connection left unanswered.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

const say = (o: unknown): void => void process.stdout.write(`${JSON.stringify(o)}\n`);
const token = process.env.BRIDGE_TOKEN;
const dieOnFile = process.env.BRIDGE_DIE_ON;
const marker = (file: string | undefined): string => {
  try {
    return file ? readFileSync(file, 'utf8').trim() : '';
  } catch {
    return '';
  }
};
const dieOn = (): string => marker(dieOnFile);

if (process.env.BRIDGE_STANDBY === '1') {
  say({ ready: true });
  process.stdin.once('data', listen);
} else listen();

function listen(): void {
  const port = Number(process.env.BRIDGE_PORT ?? 0);
  const verifyClient = (info: { req: { headers: Record<string, unknown> } }, cb: (ok: boolean, code?: number) => void): void =>
    token && info.req.headers.authorization !== `Bearer ${token}` ? cb(false, 401) : cb(true);
  const cert = process.env.BRIDGE_TLS_CERT;
  let wss: WebSocketServer;
  if (cert) {
    const server = createServer({ cert: readFileSync(cert), key: readFileSync(process.env.BRIDGE_TLS_KEY!) });
    wss = new WebSocketServer({ server, path: '/acp', verifyClient });
    server.listen(port, '127.0.0.1', () => say({ listening: (server.address() as AddressInfo).port }));
  } else {
    wss = new WebSocketServer({ host: '127.0.0.1', port, path: '/acp', verifyClient });
    wss.on('listening', () => say({ listening: (wss.address() as AddressInfo).port }));
  }
  wss.on('connection', (ws) => (process.env.BRIDGE_SILENT === '1' ? say({ silent: true }) : serve(ws)));
}

function serve(ws: WebSocket): void {
  let frozen = false;
  const agent = spawn(process.execPath, [process.env.BRIDGE_AGENT!], { stdio: ['pipe', 'pipe', 'inherit'], env: process.env });
  let buf = '';
  agent.stdout.setEncoding('utf8');
  agent.stdout.on('data', (chunk: string) => {
    buf += chunk;
    for (let nl = buf.indexOf('\n'); nl !== -1; nl = buf.indexOf('\n')) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (line.trim() && !frozen) ws.send(line);
    }
  });
  agent.on('exit', () => ws.close(1011, 'agent exited'));
  ws.on('message', (data, isBinary) => {
    if (isBinary) return;
    const text = data.toString('utf8');
    let prompt: { key?: string; text?: string } | undefined;
    try {
      const m = JSON.parse(text) as { method?: string; params?: { idempotencyKey?: string; prompt?: { text?: string }[] } };
      if (m.method === 'session/prompt') prompt = { key: m.params?.idempotencyKey, text: m.params?.prompt?.map((b) => b.text ?? '').join('') };
    } catch {
      /* passed on as it is */
    }
    if (frozen) return;
    const huge = marker(process.env.BRIDGE_HUGE_ON);
    if (huge && text.includes(huge)) {
      const bytes = Number(process.env.BRIDGE_HUGE_BYTES ?? 100 * 1024 * 1024);
      say({ huge: bytes });
      ws.send(Buffer.alloc(bytes, 0x61), { binary: false });
      return;
    }
    const freeze = marker(process.env.BRIDGE_FREEZE_ON);
    if (freeze && text.includes(freeze)) {
      frozen = true;
      ws.pause();
      say({ frozen: true });
      return;
    }
    const die = dieOn();
    if (die && text.includes(die)) {
      say({ dying: prompt ?? {} });
      process.kill(process.pid, 'SIGKILL');
      return;
    }
    if (prompt) say({ prompt });
    agent.stdin.write(`${text}\n`);
  });
  ws.on('close', () => agent.stdin.end());
}
