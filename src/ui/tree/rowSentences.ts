// What a screen reader says for a Plans tree row: one sentence naming what
// the row is, then its facts in words ("Step 2 of 5, Write the tests, in progress, priority high,
// 3 tool calls, 1 file changed"), never a path outside the workspace's own names, never the
// description's symbols (" · ", "3/7"). Free of `vscode` (unit-tested in plain Node).

const STATUS_WORDS: Record<string, string> = {
  pending: 'pending',
  in_progress: 'in progress',
  completed: 'done',
  cancelled: 'cancelled',
};

/** A step's status in words; an unknown status is said as sent. */
export function statusWords(status: string): string {
  return STATUS_WORDS[status] ?? status.replace(/_/g, ' ');
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function short(text: string, limit = 200): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > limit ? `${one.slice(0, limit - 1)}…` : one;
}

export interface StepFacts {
  readonly index: number;
  readonly total: number;
  readonly content: string;
  readonly status: string;
  readonly priority?: string;
  readonly calls?: number;
  readonly files?: number;
}

/** "Step 2 of 5, Write the tests, in progress, priority high, 3 tool calls, 1 file changed". */
export function stepSentence(f: StepFacts): string {
  const parts = [`Step ${f.index + 1} of ${f.total}`, short(f.content) || 'empty step', statusWords(f.status)];
  if (f.priority) parts.push(`priority ${f.priority}`);
  if (f.calls) parts.push(plural(f.calls, 'tool call'));
  if (f.files) parts.push(`${plural(f.files, 'file')} changed`);
  return parts.join(', ');
}

/** "File src/app.ts, changed in this step, 3 lines added, 1 removed". */
export function fileSentence(workspacePath: string, lines?: { added: number; removed: number }): string {
  const parts = [`File ${workspacePath}`, 'changed in this step'];
  if (lines) parts.push(`${plural(lines.added, 'line')} added`, `${lines.removed} removed`);
  return parts.join(', ');
}

/** "Tool call Read hello.ts, read, completed". */
export function callSentence(title: string, kind?: string, status?: string): string {
  return ['Tool call ' + short(title, 120), kind && kind !== 'other' ? kind : undefined, status ? statusWords(status) : undefined].filter(Boolean).join(', ');
}

/** What kind of row it is, said first (by its contextValue's first facet). */
const ROW_KINDS: Record<string, string> = {
  agent: 'Agent',
  session: 'Session',
  plan: 'Plan',
  archive: '',
  background: 'Background work',
  entry: 'Step',
  heading: 'Section',
  field: 'Field',
  info: '',
  fold: '',
  work: '',
  replay: 'Replayed recording',
};

/**
 * Any row, from what it shows: its kind, label and description, the description's separators and
 * symbols said as words ("2/5" → "2 of 5", "·" → a comma).
 */
export function rowSentence(label: string, description: string | undefined, contextValue: string | undefined): string {
  const kind = ROW_KINDS[(contextValue ?? '').split(':')[0] ?? ''] ?? '';
  const said = (description ?? '')
    .split(' · ')
    .map((p) => p.replace(/\b(\d+)\/(\d+)\b/g, '$1 of $2').trim())
    .filter(Boolean);
  return [kind ? `${kind} ${short(label)}` : short(label), ...said].join(', ');
}

/** A row's label as text (a TreeItem label is a string or `{ label }`). */
export function labelOf(label: string | { readonly label: string } | undefined): string {
  return typeof label === 'string' ? label : (label?.label ?? '');
}
