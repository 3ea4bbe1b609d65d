// The process worker: starts child processes on a thread of its own (node:worker_threads). Starting
// a process forks the extension host, and fork copies the page tables of the whole process: 5–30 ms
// of a blocked thread each time, which held the extension host's event loop while several agents
// streamed. Here the fork blocks only this thread. Built to dist/spawn-worker.js (esbuild.mjs).
// No `vscode`.
import { spawn, type ChildProcess } from 'child_process';
import { parentPort } from 'worker_threads';
import type { HostMessage, RunRequest, WorkerMessage } from './protocol';

const port = parentPort;
const running = new Map<number, ChildProcess>();

function post(m: WorkerMessage): void {
  if ('chunk' in m) port?.postMessage(m, [m.chunk.buffer as ArrayBuffer]);
  else port?.postMessage(m);
}

function run(r: RunRequest): void {
  let child: ChildProcess;
  try {
    child = spawn(r.file, [...r.args], { cwd: r.cwd, env: r.env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true, shell: false });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    post({ kind: 'error', id: r.id, code: err?.code, message: err instanceof Error ? err.message : String(e) });
    return;
  }
  running.set(r.id, child);
  let done = false;
  // A copy per chunk: the stream's buffers may share one pool, which cannot be transferred.
  child.stdout?.on('data', (b: Buffer) => post({ kind: 'stdout', id: r.id, chunk: new Uint8Array(b) }));
  child.stderr?.on('data', (b: Buffer) => post({ kind: 'stderr', id: r.id, chunk: new Uint8Array(b) }));
  child.stdin?.on('error', () => undefined);
  child.stdin?.end(r.input ?? '');
  // A process that cannot start says 'error' (and maybe 'close' after it); the host hears one of them.
  child.on('error', (e: NodeJS.ErrnoException) => {
    if (done) return;
    done = true;
    running.delete(r.id);
    post({ kind: 'error', id: r.id, code: e.code, message: e.message });
  });
  child.on('close', (code, signal) => {
    running.delete(r.id);
    if (done) return;
    done = true;
    post({ kind: 'close', id: r.id, code, signal });
  });
}

port?.on('message', (m: HostMessage) => {
  if (m.kind === 'run') run(m);
  else running.get(m.id)?.kill('SIGKILL');
});
