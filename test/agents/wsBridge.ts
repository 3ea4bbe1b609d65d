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
//     ACP_DEMO_*       passed to the agent
// Prints JSON lines on stdout: {"ready":true}, {"listening":port}, {"prompt":{"key","text"}} for
// each session/prompt passed on, {"dying":{"key","text"}}.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

const say = (o: unknown): void => void process.stdout.write(`${JSON.stringify(o)}\n`);
const token = process.env.BRIDGE_TOKEN;
const dieOnFile = process.env.BRIDGE_DIE_ON;
const dieOn = (): string => {
  try {
    return dieOnFile ? readFileSync(dieOnFile, 'utf8').trim() : '';
  } catch {
    return '';
  }
};

if (process.env.BRIDGE_STANDBY === '1') {
  say({ ready: true });
  process.stdin.once('data', listen);
} else listen();

function listen(): void {
  const wss = new WebSocketServer({
    host: '127.0.0.1',
    port: Number(process.env.BRIDGE_PORT ?? 0),
    path: '/acp',
    verifyClient: (info, cb) => (token && info.req.headers.authorization !== `Bearer ${token}` ? cb(false, 401) : cb(true)),
  });
  wss.on('listening', () => say({ listening: (wss.address() as AddressInfo).port }));
  wss.on('connection', serve);
}

function serve(ws: WebSocket): void {
  const agent = spawn(process.execPath, [process.env.BRIDGE_AGENT!], { stdio: ['pipe', 'pipe', 'inherit'], env: process.env });
  let buf = '';
  agent.stdout.setEncoding('utf8');
  agent.stdout.on('data', (chunk: string) => {
    buf += chunk;
    for (let nl = buf.indexOf('\n'); nl !== -1; nl = buf.indexOf('\n')) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (line.trim()) ws.send(line);
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
    const marker = dieOn();
    if (marker && text.includes(marker)) {
      say({ dying: prompt ?? {} });
      process.kill(process.pid, 'SIGKILL');
      return;
    }
    if (prompt) say({ prompt });
    agent.stdin.write(`${text}\n`);
  });
  ws.on('close', () => agent.stdin.end());
}
