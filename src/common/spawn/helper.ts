// The spawn helper: a small Node process of ours that starts child processes for the extension
// host. Starting a process forks its parent, and fork copies the page tables of the whole parent
// while it holds the parent's memory map: from the extension host (hundreds of MB) that is 5–30 ms
// of a blocked thread each time — and a helper thread's fork still blocks the host's thread at its
// next page fault. Forked from this small process instead, git costs the host one message.
// Built to dist/spawn-helper.js (esbuild.mjs); started with an IPC channel (advanced serialization).
// It ends with the channel: when the host goes, so does it, killing what it started. No `vscode`.
import { spawn, type ChildProcess } from 'child_process';
import type { HostMessage, RunRequest, HelperMessage } from './protocol';

const running = new Map<number, ChildProcess>();

function post(m: HelperMessage): void {
  if (process.connected) process.send?.(m);
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
  child.stdout?.on('data', (b: Buffer) => post({ kind: 'stdout', id: r.id, chunk: b }));
  child.stderr?.on('data', (b: Buffer) => post({ kind: 'stderr', id: r.id, chunk: b }));
  child.stdin?.on('error', () => undefined);
  child.stdin?.end(r.input === undefined ? '' : typeof r.input === 'string' ? r.input : Buffer.from(r.input));
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

process.on('message', (m: HostMessage) => {
  if (m.kind === 'run') run(m);
  else running.get(m.id)?.kill('SIGKILL');
});
process.on('disconnect', () => {
  for (const child of running.values()) child.kill('SIGKILL');
  process.exit(0);
});
