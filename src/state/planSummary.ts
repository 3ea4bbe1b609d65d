// The summary of one plan: counts per status, the current step and a one-line header such as
// "v3 — 1/5 done, 1 blocked" or "v7 — all 5 steps complete".
//
// Steps are the entries of an `items` plan, or the task checkboxes of a Markdown plan (and of a
// file plan whose text has been loaded). Header rules:
//   - "<done>/<total> done", then always the blocked count ("0 blocked" included: `blocked` and
//     custom `_blocked` steps), then every other status besides pending/in_progress/completed by
//     name (custom `_x_y` shown as "x y"), in order of first appearance, then cancelled
//     ("1 cancelled": resolved but not done);
//   - all steps completed: "all N steps complete";
//   - no steps: what the plan is ("empty plan", "markdown, no checklist", "file plan.md", "_intent plan").
// What each plan type counts as its steps is the type's own business (src/state/planTypes/);
// summarizePlan (planTypes/index.ts) picks the type.
import type { MarkdownOutline } from './markdownOutline';

export interface PlanStep {
  readonly content: string;
  readonly status: string;
}

export interface CurrentStep {
  /** Index among the plan's steps (entries; for Markdown, among its task items). */
  readonly index: number;
  readonly content: string;
  readonly status: string;
}

export interface PlanSummary {
  readonly version: number;
  /** Number of steps; 0 for plans without steps. */
  readonly total: number;
  /** Steps with status `completed`. */
  readonly done: number;
  readonly cancelled: number;
  /** Count per raw status, in order of first appearance. */
  readonly counts: Readonly<Record<string, number>>;
  /**
   * The step being worked on: the first `in_progress` entry of an items plan; for a Markdown
   * checklist (which cannot say "in progress") the first unchecked task.
   */
  readonly current?: CurrentStep;
  /** There are steps, and every one is completed or cancelled. */
  readonly resolved: boolean;
  /** There are steps, and every one is completed. */
  readonly allDone: boolean;
  readonly header: string;
}

export interface FileView {
  readonly text?: string;
  readonly error?: string;
}

export const KNOWN_STATUSES: readonly string[] = ['pending', 'in_progress', 'completed', 'cancelled'];

/** A blocked step: status `blocked`, or the custom `_blocked`. */
export function isBlocked(status: string): boolean {
  return status === 'blocked' || status === '_blocked';
}

/** How many steps are blocked, from the counts per status. */
export function blockedCount(counts: Readonly<Record<string, number>>): number {
  let n = 0;
  for (const k of Object.keys(counts)) if (isBlocked(k)) n += counts[k]!;
  return n;
}

/** Human name of a status: `in_progress` → "in progress", `_blocked` → "blocked". */
export function statusLabel(status: string): string {
  const s = status.replace(/^_+/, '').replace(/[_-]+/g, ' ').trim();
  return truncate(s || status || 'unknown', 24);
}

export function summarizeSteps(version: number, steps: readonly PlanStep[], currentStatus = 'in_progress'): PlanSummary {
  // Counted in two short arrays (a plan has few distinct statuses), not by key: this runs for
  // every plan update an agent streams.
  const statuses: string[] = [];
  const n: number[] = [];
  let current: CurrentStep | undefined;
  for (let index = 0; index < steps.length; index++) {
    const st = steps[index]!;
    const status = st.status;
    const j = statuses.indexOf(status);
    if (j >= 0) n[j]!++;
    else {
      statuses.push(status);
      n.push(1);
    }
    if (current === undefined && status === currentStatus) current = { index, content: st.content, status };
  }
  const counts: Record<string, number> = {};
  for (let j = 0; j < statuses.length; j++) counts[statuses[j]!] = n[j]!;
  return summarizeCounts(version, counts, current);
}

/** The summary of steps given their count per status (in order of first appearance). */
export function summarizeCounts(version: number, counts: Readonly<Record<string, number>>, current: CurrentStep | undefined): PlanSummary {
  let total = 0;
  let blocked = 0;
  let others = '';
  for (const k in counts) {
    const n = counts[k]!;
    total += n;
    if (isBlocked(k)) blocked += n;
    else if (!KNOWN_STATUSES.includes(k)) others += `, ${n} ${statusLabel(k)}`;
  }
  const done = counts['completed'] ?? 0;
  const cancelled = counts['cancelled'] ?? 0;
  const allDone = total > 0 && done === total;
  const resolved = total > 0 && done + cancelled === total;
  const header =
    total === 0
      ? `v${version} — empty plan`
      : allDone
        ? `v${version} — ${total === 1 ? 'the only step complete' : `all ${total} steps complete`}`
        : `v${version} — ${done}/${total} done, ${blocked} blocked${others}${cancelled ? `, ${cancelled} cancelled` : ''}`;
  return { version, total, done, cancelled, counts: { ...counts }, ...(current ? { current } : {}), resolved, allDone, header };
}

/**
 * The summary of a Markdown outline's checklist: checked tasks are `completed`, the others
 * `pending`; the current step is the first unchecked task. `what` names a plan without tasks.
 */
export function summarizeOutline(version: number, o: MarkdownOutline, what: string): PlanSummary {
  if (o.tasks === 0) return noSteps(version, what);
  const open = o.tasks - o.checked;
  const counts: Record<string, number> = {};
  for (const [k, n] of o.firstChecked
    ? ([
        ['completed', o.checked],
        ['pending', open],
      ] as const)
    : ([
        ['pending', open],
        ['completed', o.checked],
      ] as const))
    if (n) counts[k] = n;
  const current = o.firstOpen ? { index: o.firstOpen.taskIndex, content: o.firstOpen.text, status: 'pending' } : undefined;
  return summarizeCounts(version, counts, current);
}

/** The summary of a plan without steps: "v3 — <what>". */
export function noSteps(version: number, what: string): PlanSummary {
  return { version, total: 0, done: 0, cancelled: 0, counts: {}, resolved: false, allDone: false, header: `v${version} — ${what}` };
}

/** Last path segment of a URI (or the URI itself), for display. */
export function fileName(uri: string): string {
  // Index scans, not regular expressions: the URI is the agent's (no backtracking on it).
  let end = uri.length;
  for (let i = 0; i < uri.length; i++) {
    const c = uri.charCodeAt(i);
    if (c === 63 || c === 35) {
      end = i;
      break;
    }
  }
  while (end > 0 && uri.charCodeAt(end - 1) === 47) end--;
  const path = uri.slice(0, end);
  let name = path.slice(path.lastIndexOf('/') + 1) || uri;
  try {
    name = decodeURIComponent(name);
  } catch {
    /* keep it encoded */
  }
  return truncate(name, 60);
}

/** One line, at most `max` characters (an ellipsis marks a cut). */
export function truncate(s: string, max: number): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length <= max ? one : one.slice(0, Math.max(0, max - 1)).trimEnd() + '…';
}
