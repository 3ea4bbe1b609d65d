// Simple, real client services for the interop tests (the shape of `ClientServices` in
// src/protocol/api.ts): files on disk, and terminals that are real child processes. Every call is
// counted so tests can prove the agent really used them.
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import type { ClientServices } from '../../../src/protocol/api';

export interface ServiceCalls {
  reads: { path: string; line?: number | null; limit?: number | null }[];
  writes: { path: string; content: string }[];
  terminals: { command: string; args: string[]; cwd?: string | null }[];
  terminalMethods: string[];
}

interface Term {
  child: ChildProcess;
  output: string;
  limit: number | null;
  truncated: boolean;
  exit?: { exitCode: number | null; signal: string | null };
  exited: Promise<{ exitCode: number | null; signal: string | null }>;
}

export interface InteropServices extends Required<ClientServices> {
  readonly calls: ServiceCalls;
  /** Kills every terminal still running. */
  dispose(): void;
}

export function createServices(defaultCwd: string): InteropServices {
  const calls: ServiceCalls = { reads: [], writes: [], terminals: [], terminalMethods: [] };
  const terms = new Map<string, Term>();
  let nextTerm = 1;
  const term = (id: string): Term => {
    const t = terms.get(id);
    if (!t) throw new Error(`unknown terminal ${id}`);
    return t;
  };

  return {
    calls,
    async readTextFile({ path, line, limit }) {
      calls.reads.push({ path, line, limit });
      const text = await fs.readFile(path, 'utf8');
      if (line == null && limit == null) return { content: text };
      const lines = text.split('\n');
      const start = Math.max(0, (line ?? 1) - 1);
      return { content: lines.slice(start, limit == null ? undefined : start + limit).join('\n') };
    },
    async writeTextFile({ path, content }) {
      calls.writes.push({ path, content });
      await fs.writeFile(path, content, 'utf8');
    },
    terminal: {
      create({ command, args, env, cwd, outputByteLimit }) {
        calls.terminalMethods.push('create');
        calls.terminals.push({ command, args: args ?? [], cwd });
        const extraEnv = Object.fromEntries((env ?? []).map((e) => [e.name, e.value]));
        // A command without args is a shell string (that is what real agents send).
        const child =
          args && args.length
            ? spawn(command, args, { cwd: cwd ?? defaultCwd, env: { ...process.env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] })
            : spawn('/bin/sh', ['-c', command], { cwd: cwd ?? defaultCwd, env: { ...process.env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
        const t: Term = {
          child,
          output: '',
          limit: outputByteLimit ?? null,
          truncated: false,
          exited: new Promise((resolve) =>
            child.once('close', (exitCode, signal) => {
              t.exit = { exitCode, signal };
              resolve(t.exit);
            }),
          ),
        };
        const append = (d: Buffer) => {
          t.output += d.toString('utf8');
          if (t.limit != null && Buffer.byteLength(t.output) > t.limit) {
            t.output = Buffer.from(t.output).subarray(-t.limit).toString('utf8');
            t.truncated = true;
          }
        };
        child.stdout!.on('data', append);
        child.stderr!.on('data', append);
        child.on('error', (err) => {
          t.output += String(err);
        });
        const terminalId = `term-${nextTerm++}`;
        terms.set(terminalId, t);
        return Promise.resolve({ terminalId });
      },
      output({ terminalId }) {
        calls.terminalMethods.push('output');
        const t = term(terminalId);
        return Promise.resolve({ output: t.output, truncated: t.truncated, exitStatus: t.exit ?? null });
      },
      waitForExit({ terminalId }) {
        calls.terminalMethods.push('wait_for_exit');
        return term(terminalId).exited;
      },
      kill({ terminalId }) {
        calls.terminalMethods.push('kill');
        term(terminalId).child.kill('SIGTERM');
        return Promise.resolve();
      },
      release({ terminalId }) {
        calls.terminalMethods.push('release');
        const t = term(terminalId);
        if (!t.exit) t.child.kill('SIGTERM');
        terms.delete(terminalId);
        return Promise.resolve();
      },
    },
    dispose() {
      for (const t of terms.values()) if (!t.exit) t.child.kill('SIGKILL');
      terms.clear();
    },
  };
}
