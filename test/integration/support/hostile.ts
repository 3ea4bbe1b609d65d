// Helpers of the hostile battery (test/integration/hostile.test.ts): the files it plants, the
// canary folder outside the workspace, a watch on what the extension logs, the event-loop and
// memory measurement of the extension host, and the "user" who clicks only what the test says.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { monitorEventLoopDelay } from 'perf_hooks';
import * as v8 from 'v8';
import * as vm from 'vm';
import type * as vscode from 'vscode';
import type { PendingPermission } from '../../../src/state/sessionStore';
import type { PermissionDecision, RuleChoice } from '../../../src/app/permissionBroker';
import type { PhaseParams, ProbeRecord } from '../../agents/hostile/results';
import type { Internals } from './ext';

/** The files the battery needs: a canary folder outside the workspace, and traps inside it. */
export interface Plant extends PhaseParams {
  results: string;
  cleanup(): void;
}

export function plant(workspace: string): Plant {
  const canary = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-hostile-canary-'));
  const results = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-hostile-results-'));
  fs.writeFileSync(path.join(canary, 'canary.txt'), 'canary: nothing may read or change this folder\n');
  const outsidePlan = path.join(canary, 'plan.md');
  fs.writeFileSync(outsidePlan, '# A plan outside the workspace\n- [ ] never read without asking\n');
  const inWs = (name: string): string => path.join(workspace, name);
  const fifo = inWs('hostile.fifo');
  const zeroLink = inWs('hostile-zero-link');
  const danglingLink = inWs('hostile-dangling-link');
  const readable = inWs('hostile-readable.txt');
  const made = [fifo, zeroLink, danglingLink, readable];
  for (const f of made) fs.rmSync(f, { force: true });
  execFileSync('mkfifo', [fifo]);
  fs.symlinkSync('/dev/zero', zeroLink);
  fs.symlinkSync(path.join(canary, 'escaped-through-link.txt'), danglingLink);
  fs.writeFileSync(readable, 'readable after deep\n');
  return {
    workspace,
    canary,
    fifo,
    zeroLink,
    danglingLink,
    readable,
    outsidePlan,
    results,
    cleanup: () => {
      unblockFifo(fifo);
      for (const f of made) fs.rmSync(f, { force: true });
      fs.rmSync(canary, { recursive: true, force: true });
      fs.rmSync(results, { recursive: true, force: true });
    },
  };
}

/** A reader stuck on the FIFO (a defect) gets EOF: open it for writing without blocking, then close. */
function unblockFifo(fifo: string): void {
  try {
    fs.closeSync(fs.openSync(fifo, fs.constants.O_RDWR | fs.constants.O_NONBLOCK));
  } catch {
    /* gone */
  }
}

/** Every entry below `dir` with its type, size, mode and modification time (what a write would change). */
export function snapshotTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of fs.readdirSync(d)) {
      const p = path.join(d, name);
      const st = fs.lstatSync(p);
      out[path.relative(dir, p)] = `${st.isDirectory() ? 'dir' : st.isSymbolicLink() ? 'link' : 'file'} ${st.size} ${st.mode} ${st.mtimeMs}`;
      if (st.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out;
}

/** Whether a path exists and what it holds (a file the battery must not create or change). */
export function fileState(p: string): string {
  try {
    return `${fs.lstatSync(p).size} ${fs.readFileSync(p, 'utf8').slice(0, 200)}`;
  } catch {
    return 'absent';
  }
}

/** Reads what the agent recorded (its results file). */
export function readRecords(file: string): ProbeRecord[] {
  try {
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as { records: ProbeRecord[] }).records;
  } catch {
    return [];
  }
}

type LogMethod = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'append' | 'appendLine' | 'replace';
const LOG_METHODS: LogMethod[] = ['trace', 'debug', 'info', 'warn', 'error', 'append', 'appendLine', 'replace'];

/**
 * Looks at every line the extension writes to its log and trace channels (whatever the level) for
 * the given secrets; keeps counts and the first offending lines only (the trace may be huge).
 */
export function watchLogs(
  channels: vscode.LogOutputChannel[],
  secrets: string[],
): { lines: number; bytes: number; wireLines: number; leaks: string[]; stderrLines: string[]; restore(): void } {
  const watch = { lines: 0, bytes: 0, wireLines: 0, leaks: [] as string[], stderrLines: [] as string[], restore: () => undefined as void };
  const undo: (() => void)[] = [];
  for (const ch of channels) {
    const target = ch as unknown as Record<LogMethod, (...a: unknown[]) => void>;
    for (const m of LOG_METHODS) {
      const original = target[m];
      if (typeof original !== 'function') continue;
      target[m] = (...args: unknown[]) => {
        const text = args.map((a) => (typeof a === 'string' ? a : a instanceof Error ? `${a.message} ${a.stack ?? ''}` : String(a))).join(' ');
        watch.lines++;
        watch.bytes += text.length;
        if (text.startsWith('← ') || text.startsWith('→ ')) watch.wireLines++;
        for (const s of secrets)
          if (text.includes(s) && watch.leaks.length < 5) watch.leaks.push(`${m}: …${text.slice(Math.max(0, text.indexOf(s) - 100), text.indexOf(s) + 100)}…`);
        if (text.includes('stderr]') && watch.stderrLines.length < 20) watch.stderrLines.push(text.slice(0, 400));
        original.apply(ch, args);
      };
      undo.push(() => {
        target[m] = original;
      });
    }
  }
  watch.restore = () => {
    for (const u of undo) u();
  };
  return watch;
}

/** A full garbage collection when one can be had (global.gc, else V8's flag turned on for this call). */
function collectGarbage(): string {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) {
    g();
    return 'after global.gc';
  }
  try {
    v8.setFlagsFromString('--expose-gc');
    (vm.runInNewContext('gc') as () => void)();
    return 'after gc';
  } catch {
    return 'no gc available';
  }
}

export interface HostMeasure {
  p99Ms: number;
  maxMs: number;
  meanMs: number;
  rssBeforeMiB: number;
  rssAfterMiB: number;
  heapBeforeMiB: number;
  heapAfterMiB: number;
  gc: string;
  /** CPU time the extension host used (user + system), and the wall time, in seconds. */
  cpuS: number;
  wallS: number;
}

/** Event-loop delay of the extension host between start() and stop() (sampled every `resolutionMs`), and its memory before (after a GC unless `gcFirst` is false) and after. */
export function measureHost(resolutionMs = 10, gcFirst = true): { stop(): HostMeasure } {
  const mib = (n: number): number => Math.round((n / 1024 / 1024) * 10) / 10;
  if (gcFirst) collectGarbage();
  const before = process.memoryUsage();
  const cpu0 = process.cpuUsage();
  const t0 = Date.now();
  const h = monitorEventLoopDelay({ resolution: resolutionMs });
  h.enable();
  return {
    stop: () => {
      h.disable();
      const cpu = process.cpuUsage(cpu0);
      const wallS = (Date.now() - t0) / 1000;
      const gc = collectGarbage();
      const after = process.memoryUsage();
      const ms = (ns: number): number => Math.round(ns / 1e5) / 10;
      return {
        p99Ms: ms(h.percentile(99)),
        maxMs: ms(h.max),
        meanMs: ms(h.mean),
        rssBeforeMiB: mib(before.rss),
        rssAfterMiB: mib(after.rss),
        heapBeforeMiB: mib(before.heapUsed),
        heapAfterMiB: mib(after.heapUsed),
        gc,
        cpuS: Math.round((cpu.user + cpu.system) / 1e5) / 10,
        wallS: Math.round(wallS * 10) / 10,
      };
    },
  };
}

/** What the "user" does with a request: click an option (by position, as a click does), or nothing. */
export type Click = { index: number; rule?: RuleChoice } | undefined;

/**
 * The user at the keyboard: sees every request the broker puts up, clicks only where `policy`
 * says, and keeps what was asked, clicked and decided, for the zero-silent-approval checks.
 */
export class User {
  readonly asked: PendingPermission[] = [];
  readonly clicked = new Map<string, { index: number; title: string }>();
  readonly decided: PermissionDecision[] = [];
  readonly failures: string[] = [];
  policy: (p: PendingPermission) => Click = () => undefined;
  private readonly subs: vscode.Disposable[];

  constructor(
    internals: Internals,
    private readonly agentIds: readonly string[],
  ) {
    const b = internals.broker;
    this.subs = [
      b.onDidAsk((p) => {
        if (!this.agentIds.includes(p.agentId)) return;
        this.asked.push(p);
        const click = this.policy(p);
        if (!click) return;
        this.clicked.set(p.id, { index: click.index, title: p.request.title });
        void b.respond(p.id, { index: click.index }, click.rule ?? 'none').then((ok) => {
          if (!ok) this.failures.push(`click on ${p.request.title} not taken`);
        });
      }),
      b.onDidDecide((d) => {
        if (this.agentIds.includes(d.agentId)) this.decided.push(d);
      }),
    ];
  }

  /** Requests asked whose title contains `s`. */
  askedWith(s: string): PendingPermission[] {
    return this.asked.filter((p) => p.request.title.includes(s));
  }

  /** Decisions that allowed without a click: the number the battery must keep at zero. */
  silentApprovals(): string[] {
    return this.decided
      .filter((d) => {
        if (d.outcome.outcome !== 'selected') return false;
        const chosen = d.outcome.optionId;
        const allows = d.request.options.some((o) => o.optionId === chosen && o.kind.startsWith('allow'));
        return allows && (!this.clicked.has(d.id) || d.auto !== undefined);
      })
      .map((d) => `${d.request.title} → ${JSON.stringify(d.outcome)}${d.auto ? ` (auto ${JSON.stringify(d.auto)})` : ''}`);
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
  }
}

export function assertNoLeaks(leaks: string[]): void {
  assert.deepStrictEqual(leaks, [], 'secrets reached the ACP log or trace');
}
