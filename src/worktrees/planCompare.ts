// Two sessions' plans side by side: steps matched only when they are the same step (the same
// words, in any case and punctuation; or similar words, at least half shared, and the very same
// files written), what one did that the other did not, each step's progress, and the files each
// session changed (only one, or both). Shared words alone never make two steps one: "Create
// alpha.txt" and "Create bravo.txt" are two steps. Pure (unit tested); the view renders the result.

export interface StepIn {
  readonly content: string;
  /** pending | in_progress | completed | failed | … (anything else is shown as it is). */
  readonly status: string;
  /** The files the step wrote, relative to its session's worktree (absent: not known). */
  readonly files?: readonly string[];
}

export interface StepPair {
  readonly a?: StepIn;
  readonly b?: StepIn;
  /** 1 for the same words, else the share of words in common (Jaccard). */
  readonly similarity: number;
}

const MIN_SIMILARITY = 0.5;

export function normalizeStep(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function words(text: string): Set<string> {
  return new Set(normalizeStep(text).split(' ').filter(Boolean));
}

export function similarity(x: string, y: string): number {
  if (normalizeStep(x) === normalizeStep(y)) return 1;
  const a = words(x);
  const b = words(y);
  if (!a.size || !b.size) return 0;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Both steps wrote files, and the very same ones. */
function sameFiles(x: StepIn, y: StepIn): boolean {
  if (!x.files?.length || !y.files?.length) return false;
  const a = new Set(x.files);
  const b = new Set(y.files);
  return a.size === b.size && [...a].every((f) => b.has(f));
}

/** How alike two steps are when they may be one (1: the same words), else 0. */
function sameStep(x: StepIn, y: StepIn): number {
  const s = similarity(x.content, y.content);
  return s === 1 || (s >= MIN_SIMILARITY && sameFiles(x, y)) ? s : 0;
}

/** Pairs the steps of two plans; unmatched steps of either side appear alone, in their plan's order. */
export function matchSteps(a: readonly StepIn[], b: readonly StepIn[]): StepPair[] {
  const candidates: { i: number; j: number; s: number }[] = [];
  for (let i = 0; i < a.length; i++)
    for (let j = 0; j < b.length; j++) {
      const s = sameStep(a[i]!, b[j]!);
      if (s > 0) candidates.push({ i, j, s });
    }
  candidates.sort((x, y) => y.s - x.s || x.i - y.i || x.j - y.j);
  const aToB = new Map<number, { j: number; s: number }>();
  const usedB = new Set<number>();
  for (const c of candidates) {
    if (aToB.has(c.i) || usedB.has(c.j)) continue;
    aToB.set(c.i, { j: c.j, s: c.s });
    usedB.add(c.j);
  }
  const out: StepPair[] = [];
  let nextB = 0;
  const flushB = (upTo: number): void => {
    for (; nextB < upTo; nextB++) if (!usedB.has(nextB)) out.push({ b: b[nextB]!, similarity: 0 });
  };
  for (let i = 0; i < a.length; i++) {
    const m = aToB.get(i);
    if (m) {
      flushB(m.j);
      nextB = Math.max(nextB, m.j + 1);
      out.push({ a: a[i]!, b: b[m.j]!, similarity: m.s });
    } else out.push({ a: a[i]!, similarity: 0 });
  }
  flushB(b.length);
  return out;
}

const MARK: Record<string, string> = { completed: '[x]', in_progress: '[~]', pending: '[ ]', failed: '[!]' };
function mark(s: StepIn | undefined): string {
  return s ? (MARK[s.status] ?? `[${s.status}]`) : '   ';
}

/** The files two sessions changed: one file list per side (paths relative to each worktree). */
export interface FilesIn {
  readonly a: readonly string[];
  readonly b: readonly string[];
}

function fileLines(files: FilesIn): string[] {
  const a = new Set(files.a);
  const b = new Set(files.b);
  const list = (xs: string[]): string => (xs.length ? xs.join(', ') : 'none');
  return [
    '',
    'Files changed against each base:',
    `A only: ${list([...a].filter((f) => !b.has(f)).sort())}`,
    `B only: ${list([...b].filter((f) => !a.has(f)).sort())}`,
    `Both: ${list([...a].filter((f) => b.has(f)).sort())}`,
  ];
}

/** The files a line's steps wrote: one list, or each side's when they differ. */
function pairFiles(p: StepPair): string {
  const list = (s: StepIn | undefined): string => (s?.files?.length ? s.files.join(', ') : '');
  const [a, b] = [list(p.a), list(p.b)];
  if (!p.a || !p.b || a === b) return a || b ? `  [${a || b}]` : '';
  return `  [A: ${a || 'none'} | B: ${b || 'none'}]`;
}

/** The comparison as plain text (a read-only document): one line per pair, what only one side did, the files of each. */
export function compareText(nameA: string, nameB: string, plansA: readonly StepIn[], plansB: readonly StepIn[], files?: FilesIn): string {
  const pairs = matchSteps(plansA, plansB);
  const done = (steps: readonly StepIn[]): number => steps.filter((s) => s.status === 'completed').length;
  const lines = [
    `Compare sessions`,
    `A: ${nameA} — ${done(plansA)}/${plansA.length} steps done`,
    `B: ${nameB} — ${done(plansB)}/${plansB.length} steps done`,
    '',
    'Steps (A | B):',
  ];
  for (const p of pairs) {
    const both = p.a && p.b;
    const text = both ? p.a!.content : (p.a ?? p.b)!.content;
    const tag = both ? (p.similarity < 1 ? `  (B: "${p.b!.content}")` : '') : p.a ? '  — only A' : '  — only B';
    lines.push(`${mark(p.a)} | ${mark(p.b)}  ${text}${tag}${pairFiles(p)}`);
  }
  const onlyDone = (side: 'a' | 'b'): string[] =>
    pairs.filter((p) => p[side]?.status === 'completed' && p[side === 'a' ? 'b' : 'a']?.status !== 'completed').map((p) => p[side]!.content);
  const onlyA = onlyDone('a');
  const onlyB = onlyDone('b');
  lines.push('', `Done by A only: ${onlyA.length ? onlyA.join('; ') : 'nothing'}`, `Done by B only: ${onlyB.length ? onlyB.join('; ') : 'nothing'}`);
  if (files) lines.push(...fileLines(files));
  return `${lines.join('\n')}\n`;
}
