// v1 client terminals: real processes, run through a shell in the session cwd when the command
// is a shell string (no args). Output is kept up to the agent's byte limit (oldest bytes dropped,
// at a character boundary).
import { spawn, type ChildProcess } from 'child_process';

export interface TerminalExit { exitCode: number | null; signal: string | null }
export interface TerminalSnapshot { sessionId: string; terminalId: string; command: string; output: string; truncated: boolean; exit?: TerminalExit }

interface Term {
  sessionId: string;
  command: string;
  child: ChildProcess;
  chunks: Buffer[];
  bytes: number;
  limit: number;
  truncated: boolean;
  exit?: TerminalExit;
  exited: Promise<TerminalExit>;
  emitTimer?: ReturnType<typeof setTimeout>;
}

const DEFAULT_LIMIT = 1024 * 1024;
/** The most output kept per terminal, whatever the agent asks for. */
const MAX_LIMIT = 16 * 1024 * 1024;
/** Output is pushed to the transcript at most this often (and at exit). */
const EMIT_MS = 50;

export class TerminalService {
  private readonly terms = new Map<string, Term>();
  private seq = 0;

  constructor(private readonly onOutput: (t: TerminalSnapshot) => void, private readonly defaultCwd: (sessionId: string) => string | undefined) {}

  create(p: { sessionId: string; command: string; args?: string[]; env?: { name: string; value: string }[]; cwd?: string | null; outputByteLimit?: number | null }): { terminalId: string } {
    const terminalId = `term-${++this.seq}`;
    const env = { ...process.env, ...Object.fromEntries((p.env ?? []).map((e) => [e.name, e.value])) };
    const cwd = p.cwd ?? this.defaultCwd(p.sessionId);
    const shell = !p.args || p.args.length === 0;
    // Own process group, so kill/release reach what the command started (npm → node …) too.
    const detached = process.platform !== 'win32';
    const child = shell
      ? spawn(p.command, { cwd, env, shell: true, stdio: ['ignore', 'pipe', 'pipe'], detached })
      : spawn(p.command, p.args ?? [], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached });
    const term: Term = {
      sessionId: p.sessionId, command: [p.command, ...(p.args ?? [])].join(' '), child, chunks: [], bytes: 0,
      limit: Math.min(MAX_LIMIT, Math.max(0, p.outputByteLimit ?? DEFAULT_LIMIT)), truncated: false,
      exited: Promise.resolve({ exitCode: null, signal: null }),
    };
    term.exited = new Promise((resolve) => {
      child.once('error', (err) => { this.append(terminalId, term, Buffer.from(`${err.message}\n`)); });
      child.once('close', (code, signal) => {
        term.exit = { exitCode: code, signal: signal ?? null };
        if (term.emitTimer) clearTimeout(term.emitTimer);
        term.emitTimer = undefined;
        this.emit(terminalId, term);
        resolve(term.exit);
      });
    });
    child.stdout?.on('data', (b: Buffer) => this.append(terminalId, term, b));
    child.stderr?.on('data', (b: Buffer) => this.append(terminalId, term, b));
    this.terms.set(terminalId, term);
    this.emit(terminalId, term);
    return { terminalId };
  }

  output(p: { terminalId: string }): { output: string; truncated: boolean; exitStatus?: TerminalExit | null } {
    const t = this.get(p.terminalId);
    return { output: text(t), truncated: t.truncated, exitStatus: t.exit ?? null };
  }

  async waitForExit(p: { terminalId: string }): Promise<TerminalExit> { return this.get(p.terminalId).exited; }

  kill(p: { terminalId: string }): void {
    const t = this.get(p.terminalId);
    if (!t.exit) signal(t.child, 'SIGTERM');
  }

  release(p: { terminalId: string }): void {
    const t = this.terms.get(p.terminalId);
    if (!t) return;
    if (!t.exit) signal(t.child, 'SIGKILL');
    if (t.emitTimer) clearTimeout(t.emitTimer);
    this.terms.delete(p.terminalId);
  }

  /** Kills every terminal of a session (session closed) or of all sessions. */
  releaseAll(sessionId?: string): void {
    for (const [id, t] of this.terms) if (!sessionId || t.sessionId === sessionId) this.release({ terminalId: id });
  }

  private get(id: string): Term {
    const t = this.terms.get(id);
    if (!t) throw new Error(`Unknown terminal ${id} (it may have been released).`);
    return t;
  }

  private append(id: string, t: Term, b: Buffer): void {
    t.chunks.push(b);
    t.bytes += b.length;
    if (t.bytes > t.limit) {
      let all = Buffer.concat(t.chunks);
      let start = all.length - t.limit;
      while (start < all.length && (all[start]! & 0xc0) === 0x80) start++; // never cut a UTF-8 character
      all = all.subarray(start);
      t.chunks = [all];
      t.bytes = all.length;
      t.truncated = true;
    }
    // Coalesced: a chatty command must not re-render its whole output for every chunk.
    t.emitTimer ??= setTimeout(() => { t.emitTimer = undefined; if (this.terms.has(id)) this.emit(id, t); }, EMIT_MS);
  }

  private emit(id: string, t: Term): void {
    this.onOutput({ sessionId: t.sessionId, terminalId: id, command: t.command, output: text(t), truncated: t.truncated, exit: t.exit });
  }
}

/** Signals the terminal's process group (falls back to the process). */
function signal(child: ChildProcess, sig: NodeJS.Signals): void {
  if (child.pid !== undefined && process.platform !== 'win32') {
    try { process.kill(-child.pid, sig); return; } catch { /* group gone */ }
  }
  child.kill(sig);
}

function text(t: Term): string { return Buffer.concat(t.chunks).toString('utf8'); }
