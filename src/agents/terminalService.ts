// v1 client terminals (`terminal/*`): real processes, run only with the user's approval, in a
// folder of the session, with the agent's environment checked, and reachable only from the
// connection and session that created them. Plain Node (no vscode).
//
// terminal/create, in order (nothing is spawned unless every step passes):
// 1. shape: a non-empty command without NUL; command and args at most MAX_COMMAND_CHARS in all
//    and at most MAX_ARGS args (else InvalidParams);
// 2. environment: checkEnv (terminalEnv.ts) refuses the whole request, naming the variable;
// 3. count: at most `perSession` terminals per (agent, session) and `perAgent` per agent, live or
//    exited but not yet released, plus the ones waiting for approval;
// 4. cwd: resolved through realpath, must be a folder inside `roots(agentId, sessionId)` (the
//    session's folder and its additional folders); no cwd means the first root;
// 5. approval: `approve(req)`; see its contract below. Not approved → an error the agent reads
//    ("The user did not allow running …") and nothing runs. A release of the session's terminals
//    (session closed, agent stopped) while the user is asked also means nothing runs.
//
// Contract of `approve(req)`: resolves true only when the user allowed this command (a permission
// the user granted for this very command in this turn, a rule the user made, or a yes to a
// question asked now); false for no, dismissal, cancellation. A rejection or a throw counts as no.
// `req.cwd` is the real folder the command will run in, `req.env` only the agent's variables
// (already checked); `req.args` empty means `command` is run by the shell (`sh -c` / `cmd /c`).
//
// Ids are `term_<random UUID>`; any terminal/* call whose (connection, session, id) does not match
// gets the same "unknown terminal" error, so ids from another session or agent tell nothing.
// Output: TerminalOutput keeps at most `outputByteLimit` bytes (default and ceiling in
// TerminalLimits) for the agent; the text is also pushed to `onOutput` as deltas (coalesced to one
// call per EMIT_MS, and at exit), never as the whole output again.

import { spawn, type ChildProcess } from 'child_process';
import { randomUUID } from 'crypto';
import type { ClientServices } from '../protocol/api';
import { ErrorCodes, RpcError } from '../protocol/transport/rpcError';
import { AccessDeniedError, printable, resolveFolderInRoots } from './pathPolicy';
import { checkEnv, EnvRefusedError } from './terminalEnv';
import { TerminalOutput } from './terminalOutput';

export interface TerminalExit {
  exitCode: number | null;
  signal: string | null;
}

export interface TerminalApprovalRequest {
  agentId: string;
  sessionId: string;
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

/** Output appended to one terminal since the last event (`exit` once, at the end). */
export interface TerminalOutputEvent {
  agentId: string;
  sessionId: string;
  terminalId: string;
  command: string;
  cwd: string;
  text: string;
  exit?: TerminalExit;
}

export interface TerminalLimits {
  /** Live terminals (running, or exited and not released) per agent session. */
  perSession: number;
  /** Live terminals per agent, all sessions together. */
  perAgent: number;
  /** Output kept for the agent when it gives no `outputByteLimit`. */
  defaultOutputBytes: number;
  /** Output kept for the agent whatever `outputByteLimit` it gives. */
  maxOutputBytes: number;
}

export const DEFAULT_TERMINAL_LIMITS: TerminalLimits = {
  perSession: 16,
  perAgent: 32,
  defaultOutputBytes: 1024 * 1024,
  maxOutputBytes: 4 * 1024 * 1024,
};
export const MAX_COMMAND_CHARS = 32 * 1024;
export const MAX_ARGS = 1024;
/** Output is pushed to `onOutput` at most this often (and at exit). */
const EMIT_MS = 50;

export interface TerminalServiceOptions {
  onOutput(e: TerminalOutputEvent): void;
  roots(agentId: string, sessionId: string): readonly string[];
  approve(req: TerminalApprovalRequest): Promise<boolean>;
  limits?: Partial<TerminalLimits>;
}

export type TerminalHandlers = NonNullable<ClientServices['terminal']>;
type CreateParams = Parameters<TerminalHandlers['create']>[0];

interface Owner {
  connection: number;
  agentId: string;
  sessionId: string;
}
interface Pending extends Owner {
  cancelled: boolean;
}

interface Term extends Owner {
  id: string;
  command: string;
  cwd: string;
  child: ChildProcess;
  out: TerminalOutput;
  decoders: [TextDecoder, TextDecoder];
  unsent: string[];
  unsentChars: number;
  exit?: TerminalExit;
  exited: Promise<TerminalExit>;
  emitTimer?: ReturnType<typeof setTimeout>;
}

export class TerminalService {
  private readonly terms = new Map<string, Term>();
  private readonly pending = new Set<Pending>();
  private readonly limits: TerminalLimits;
  private connections = 0;

  constructor(private readonly options: TerminalServiceOptions) {
    this.limits = { ...DEFAULT_TERMINAL_LIMITS, ...options.limits };
  }

  /** The terminal handlers of one connection of agent `agentId` (call once per connection). */
  forConnection(agentId: string): TerminalHandlers {
    const connection = ++this.connections;
    const find = (p: { sessionId: string; terminalId: string }): Term => this.find({ connection, agentId, sessionId: p.sessionId }, p.terminalId);
    return {
      create: (p) => this.create({ connection, agentId, sessionId: p.sessionId }, p),
      output: async (p) => {
        const t = find(p);
        return { output: t.out.text(t.exit !== undefined), truncated: t.out.truncated, exitStatus: t.exit ?? null };
      },
      waitForExit: async (p) => find(p).exited,
      kill: async (p) => {
        const t = find(p);
        if (!t.exit) signal(t.child, 'SIGTERM');
      },
      release: async (p) => {
        const t = this.terms.get(p.terminalId);
        if (t && sameOwner(t, { connection, agentId, sessionId: p.sessionId })) this.release(t);
      },
    };
  }

  /** Kills and forgets the terminals of an agent (stopped), of one of its sessions (closed), or all. */
  releaseAll(filter: { agentId?: string; sessionId?: string } = {}): void {
    const matches = (o: Owner): boolean =>
      (filter.agentId === undefined || o.agentId === filter.agentId) && (filter.sessionId === undefined || o.sessionId === filter.sessionId);
    for (const p of this.pending) if (matches(p)) p.cancelled = true;
    for (const t of [...this.terms.values()]) if (matches(t)) this.release(t);
  }

  dispose(): void {
    this.releaseAll();
  }

  /** Terminals held (live or exited, not released), for tests and diagnostics. */
  get size(): number {
    return this.terms.size;
  }

  private async create(owner: Owner, p: CreateParams): Promise<{ terminalId: string }> {
    const args = p.args ?? [];
    checkShape(p.command, args);
    let env: Record<string, string>;
    try {
      env = checkEnv(p.env);
    } catch (err) {
      if (err instanceof EnvRefusedError) throw new RpcError(ErrorCodes.InvalidParams, err.message);
      throw err;
    }
    this.checkCount(owner);
    const ticket: Pending = { ...owner, cancelled: false };
    this.pending.add(ticket);
    try {
      const cwd = await this.resolveCwd(owner, p.cwd ?? undefined);
      const shown = commandLine(p.command, args);
      let approved = false;
      try {
        approved = await this.options.approve({
          agentId: owner.agentId,
          sessionId: owner.sessionId,
          command: p.command,
          args: [...args],
          cwd,
          env: { ...env },
        });
      } catch {
        approved = false;
      }
      if (!approved)
        throw new RpcError(ErrorCodes.InternalError, `The user did not allow running "${shown}". Do not run it again unless the user asks for it.`, {
          reason: 'not_approved',
        });
      if (ticket.cancelled)
        throw new RpcError(ErrorCodes.InternalError, `"${shown}" was not run: the session's terminals were released while the user was asked.`, {
          reason: 'released',
        });
      return { terminalId: this.spawn(owner, p, cwd, env).id };
    } finally {
      this.pending.delete(ticket);
    }
  }

  private checkCount(owner: Owner): void {
    const all = [...this.terms.values(), ...this.pending];
    const ofAgent = all.filter((o) => o.agentId === owner.agentId);
    const ofSession = ofAgent.filter((o) => o.sessionId === owner.sessionId);
    if (ofSession.length >= this.limits.perSession) {
      throw new RpcError(
        ErrorCodes.InvalidRequest,
        `Too many terminals in this session (${this.limits.perSession}): release the terminals you no longer need (terminal/release) first.`,
      );
    }
    if (ofAgent.length >= this.limits.perAgent) {
      throw new RpcError(
        ErrorCodes.InvalidRequest,
        `Too many terminals for this agent (${this.limits.perAgent} in all sessions): release the terminals you no longer need (terminal/release) first.`,
      );
    }
  }

  private async resolveCwd(owner: Owner, cwd: string | undefined): Promise<string> {
    try {
      return await resolveFolderInRoots(this.options.roots(owner.agentId, owner.sessionId), cwd);
    } catch (err) {
      if (err instanceof AccessDeniedError) throw new RpcError(ErrorCodes.InvalidParams, err.message);
      throw err;
    }
  }

  private spawn(owner: Owner, p: CreateParams, cwd: string, agentEnv: Record<string, string>): Term {
    const args = p.args ?? [];
    const env = { ...process.env, ...agentEnv };
    // Own process group, so kill/release reach what the command started (npm → node …) too.
    const detached = process.platform !== 'win32';
    const child =
      args.length === 0
        ? spawn(p.command, { cwd, env, shell: true, stdio: ['ignore', 'pipe', 'pipe'], detached })
        : spawn(p.command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached });
    const wanted = p.outputByteLimit ?? this.limits.defaultOutputBytes;
    const limit = Math.min(this.limits.maxOutputBytes, Math.max(0, Number.isFinite(wanted) ? Math.floor(wanted) : this.limits.defaultOutputBytes));
    const t: Term = {
      ...owner,
      id: `term_${randomUUID()}`,
      command: commandLine(p.command, args),
      cwd,
      child,
      out: new TerminalOutput(limit),
      decoders: [new TextDecoder(), new TextDecoder()],
      unsent: [],
      unsentChars: 0,
      exited: Promise.resolve({ exitCode: null, signal: null }),
    };
    t.exited = new Promise((resolve) => {
      const finish = (exit: TerminalExit): void => {
        if (t.exit) return;
        t.exit = exit;
        for (const d of t.decoders) this.queue(t, d.decode());
        this.flush(t);
        resolve(exit);
      };
      child.on('error', (err) => {
        // `on`: a second error with no listener would throw in the host
        this.onData(t, 1, Buffer.from(`${err.message}\n`));
        if (child.pid === undefined) finish({ exitCode: null, signal: null }); // never started
      });
      child.once('close', (code, sig) => finish({ exitCode: code, signal: sig ?? null }));
    });
    child.stdout?.on('data', (b: Buffer) => this.onData(t, 0, b));
    child.stderr?.on('data', (b: Buffer) => this.onData(t, 1, b));
    this.terms.set(t.id, t);
    this.emit(t, '');
    return t;
  }

  private onData(t: Term, stream: 0 | 1, b: Buffer): void {
    t.out.append(b);
    this.queue(t, t.decoders[stream].decode(b, { stream: true }));
    // Coalesced: a chatty command must not re-render for every chunk.
    t.emitTimer ??= setTimeout(() => {
      t.emitTimer = undefined;
      this.flush(t);
    }, EMIT_MS);
  }

  /** Text not yet pushed, bounded like the agent's output: only the newest part is worth showing. */
  private queue(t: Term, text: string): void {
    if (!text) return;
    t.unsent.push(text);
    t.unsentChars += text.length;
    while (t.unsentChars > this.limits.maxOutputBytes && t.unsent.length > 1) t.unsentChars -= t.unsent.shift()!.length;
  }

  private flush(t: Term): void {
    if (t.emitTimer) clearTimeout(t.emitTimer);
    t.emitTimer = undefined;
    if (!this.terms.has(t.id)) return;
    const text = t.unsent.join('');
    t.unsent = [];
    t.unsentChars = 0;
    if (text || t.exit) this.emit(t, text);
  }

  private emit(t: Term, text: string): void {
    this.options.onOutput({
      agentId: t.agentId,
      sessionId: t.sessionId,
      terminalId: t.id,
      command: t.command,
      cwd: t.cwd,
      text,
      ...(t.exit ? { exit: t.exit } : {}),
    });
  }

  private find(owner: Owner, terminalId: string): Term {
    const t = typeof terminalId === 'string' ? this.terms.get(terminalId) : undefined;
    if (!t || !sameOwner(t, owner)) {
      throw new RpcError(
        ErrorCodes.ResourceNotFound,
        `Unknown terminal "${printable(String(terminalId).slice(0, 100))}" in this session (it may have been released).`,
      );
    }
    return t;
  }

  private release(t: Term): void {
    if (!t.exit) signal(t.child, 'SIGKILL');
    if (t.emitTimer) clearTimeout(t.emitTimer);
    t.emitTimer = undefined;
    this.terms.delete(t.id);
  }
}

function sameOwner(a: Owner, b: Owner): boolean {
  return a.connection === b.connection && a.agentId === b.agentId && a.sessionId === b.sessionId;
}

function checkShape(command: unknown, args: readonly unknown[]): void {
  const bad = (m: string): never => {
    throw new RpcError(ErrorCodes.InvalidParams, `Refused to run the command: ${m}.`);
  };
  if (typeof command !== 'string' || command.trim() === '') bad('no command was given');
  if (args.length > MAX_ARGS) bad(`${args.length} arguments were given (at most ${MAX_ARGS})`);
  let chars = (command as string).length;
  for (const a of args) {
    if (typeof a !== 'string') bad('every argument must be a string');
    chars += (a as string).length;
    if ((a as string).includes('\0')) bad('an argument contains a NUL character');
  }
  if ((command as string).includes('\0')) bad('the command contains a NUL character');
  if (chars > MAX_COMMAND_CHARS) bad(`the command line is ${chars} characters long (at most ${MAX_COMMAND_CHARS})`);
}

/** The command as shown to people (quoted where an argument has spaces), at most 500 characters. */
function commandLine(command: string, args: readonly string[]): string {
  const line = [command, ...args.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`))].join(' ');
  return printable(line.length > 500 ? `${line.slice(0, 500)}…` : line);
}

/** Signals the terminal's process group (falls back to the process). */
function signal(child: ChildProcess, sig: NodeJS.Signals): void {
  if (child.pid !== undefined && process.platform !== 'win32') {
    try {
      process.kill(-child.pid, sig);
      return;
    } catch {
      /* group gone */
    }
  }
  child.kill(sig);
}
