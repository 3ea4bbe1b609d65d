// The work of one session as the work index keeps it (src/state/attribution/workStore.ts): its
// plans' steps, tool calls, file changes, messages and terminals, and the explicit-link rule.
// vscode-free.
import nodePath from 'node:path';
import type { Meta } from '../../protocol/domain';
import type { PlanTrack, Step } from './steps';

/** The `_meta` key that links work to a plan entry explicitly. */
export const PLAN_ENTRY_META_KEY = 'acp-plans/planEntry';
export const MAX_TEXT_CHARS = 512 * 1024;
export const MAX_SESSION_TEXT_CHARS = 8 * 1024 * 1024;
export const MAX_CALLS = 20_000;
export const MAX_TITLE = 200;
export const UNPLANNED_KEY = -3;

export interface StepRef {
  readonly planId: string;
  readonly key: number;
}

export interface CallInfo {
  readonly toolCallId: string;
  title: string;
  kind: string;
  status: string;
  owners: Step[];
  /** First seen (ms). */
  readonly time: number;
  /** Paths the call names in diffs and locations (created on the first one: most calls name none). */
  paths?: Set<string>;
}

/** One change of one file: from a tool call's diff, or a write the client made for the agent. */
export interface FileChange {
  readonly path: string;
  /** Text before (null: the file did not exist); undefined when not known or not kept. */
  readonly before: string | null | undefined;
  readonly after: string | undefined;
  /** The client wrote it (fs/write_text_file): the only changes Revert may undo. */
  readonly written: boolean;
  readonly toolCallId?: string;
  readonly time: number;
  /** The texts were over the caps and were not kept. */
  readonly textDropped?: boolean;
  /** This file's section of the diff's patch, when the diff had no full texts for it (patchTexts.ts rebuilds them). */
  readonly patch?: string;
  /** Seen between two checkpoints of a workspace folder (src/app/checkpoints): its texts are read from them. */
  readonly checkpoint?: CheckpointSpan;
  owners: Step[];
}

/** Two checkpoints of one workspace folder (commit ids of its shadow repository). */
export interface CheckpointSpan {
  readonly folder: string;
  readonly from: string;
  readonly to: string;
  readonly status: 'added' | 'modified' | 'deleted';
  readonly added: number;
  readonly removed: number;
  readonly binary: boolean;
}

/** A step by its stable identity: `planId` absent = Unplanned; `key` WHOLE_PLAN = the plan as a whole. */
export interface OwnerRef {
  readonly planId?: string;
  readonly key: number;
}

/** What changed in one workspace folder between two checkpoints, and who owned that time. */
export interface CheckpointInterval {
  readonly folder: string;
  readonly from: string;
  readonly to: string;
  /** When `from` was taken: a change the wire reported for the same path since then keeps its steps. */
  readonly since: number;
  readonly owners: readonly OwnerRef[];
  /** Absolute paths. */
  readonly files: readonly {
    readonly path: string;
    readonly status: 'added' | 'modified' | 'deleted';
    readonly added: number;
    readonly removed: number;
    readonly binary: boolean;
  }[];
}

/** What changed: rows of steps (their current index; WHOLE_PLAN = the plan's own work row) and "Unplanned". */
export interface WorkChange {
  readonly agentId: string;
  readonly sessionId: string;
  readonly steps: readonly { readonly planId: string; readonly index: number }[];
  readonly unplanned: boolean;
}

export class SessionWork {
  /** The session's working folder when known (relative paths are resolved against it). */
  cwd: string | undefined;
  readonly plans = new Map<string, PlanTrack>();
  readonly calls = new Map<string, CallInfo>();
  /** Call ids in arrival order, from `callsHead` on: the next one to forget is `callOrder[callsHead]`. */
  callOrder: string[] = [];
  callsHead = 0;
  /** Calls not finished yet (pending, in progress): where a client write looks for its call. */
  readonly open = new Set<CallInfo>();
  readonly changes: FileChange[] = [];
  readonly messages = new Set<string>();
  readonly terminals = new Set<string>();
  readonly unplanned: Step = {
    key: UNPLANNED_KEY,
    index: UNPLANNED_KEY,
    content: 'Unplanned',
    status: 'unplanned',
    calls: [],
    files: [],
    messages: [],
    terminals: [],
  };
  textChars = 0;
  forgottenCalls = 0;
}

/**
 * A file as the work index keys it: a path the agent named relative to the session's folder is
 * resolved against it, so `alpha.txt` and `<worktree>/alpha.txt` are one file, live and on replay
 * alike. Absolute paths (POSIX or Windows), URIs and paths of a session without a known folder are
 * kept as named.
 */
export function filePath(cwd: string | undefined, p: string): string {
  if (!cwd || !p || nodePath.posix.isAbsolute(p) || nodePath.win32.isAbsolute(p) || /^[a-z][a-z0-9+.-]+:/i.test(p)) return p;
  const api = nodePath.win32.isAbsolute(cwd) && !nodePath.posix.isAbsolute(cwd) ? nodePath.win32 : nodePath.posix;
  return api.join(cwd, p);
}

/** The steps an explicit `_meta` link names, or undefined when there is none (or none that resolves). */
export function linkOf(w: SessionWork, meta: Meta): Step[] | undefined {
  const raw = meta?.[PLAN_ENTRY_META_KEY];
  if (raw === undefined) return undefined;
  const links = Array.isArray(raw) ? raw.slice(0, 16) : [raw];
  const out: Step[] = [];
  for (const l of links) {
    if (!l || typeof l !== 'object') continue;
    const { planId, index } = l as { planId?: unknown; index?: unknown };
    const t = typeof planId === 'string' ? w.plans.get(planId) : undefined;
    if (!t) continue;
    const s = typeof index === 'number' && Number.isInteger(index) ? (t.byIndex[index] ?? t.whole) : t.whole;
    if (!out.includes(s)) out.push(s);
  }
  return out.length ? out : undefined;
}

export function sameSteps(a: readonly Step[], b: readonly Step[]): boolean {
  return a.length === b.length && a.every((s) => b.includes(s));
}

export function remove(list: string[], id: string): void {
  if (list[0] === id) {
    list.shift();
    return;
  } // the oldest call: first in its steps' lists
  const i = list.indexOf(id);
  if (i >= 0) list.splice(i, 1);
}
