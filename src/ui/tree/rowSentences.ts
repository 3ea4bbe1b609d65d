// What a screen reader says for a Plans tree row: one sentence naming what
// the row is, then its facts in words ("Step 2 of 5, Write the tests, in progress, priority high,
// 3 tool calls, 1 file changed"), never a path outside the workspace's own names, never the
// description's symbols (" · ", "3/7"). Free of `vscode` (unit-tested in plain Node): the words
// go through the `L10n` argument (`vscode.l10n` in the product, English by default).
import { english, type L10n } from '../../common/l10n';

/** A step's status in words; an unknown status is said as sent. */
export function statusWords(status: string, l10n: L10n = english): string {
  switch (status) {
    case 'pending':
      return l10n.t('pending');
    case 'in_progress':
      return l10n.t('in progress');
    case 'completed':
      return l10n.t('done');
    case 'cancelled':
      return l10n.t('cancelled');
    default:
      return status.replace(/_/g, ' ');
  }
}

/** An agent's status in words (the tree row, its tooltip and what a screen reader says); an unknown one as sent. */
export function agentStatusWords(status: string, l10n: L10n = english): string {
  switch (status) {
    case 'stopped':
      return l10n.t('stopped');
    case 'starting':
      return l10n.t('starting');
    case 'running':
      return l10n.t('running');
    case 'stopping':
      return l10n.t('stopping');
    case 'restarting':
      return l10n.t('restarting');
    case 'crashed':
      return l10n.t('crashed');
    case 'failed':
      return l10n.t('failed');
    case 'gone':
      return l10n.t('gone');
    default:
      return status.replace(/_/g, ' ');
  }
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
export function stepSentence(f: StepFacts, l10n: L10n = english): string {
  const parts = [l10n.t('Step {0} of {1}', f.index + 1, f.total), short(f.content) || l10n.t('empty step'), statusWords(f.status, l10n)];
  if (f.priority) parts.push(l10n.t('priority {0}', f.priority));
  if (f.calls) parts.push(f.calls === 1 ? l10n.t('1 tool call') : l10n.t('{0} tool calls', f.calls));
  if (f.files) parts.push(f.files === 1 ? l10n.t('1 file changed') : l10n.t('{0} files changed', f.files));
  return parts.join(', ');
}

/** "File src/app.ts, changed in this step, 3 lines added, 1 removed". */
export function fileSentence(workspacePath: string, lines?: { added: number; removed: number }, l10n: L10n = english): string {
  const parts = [l10n.t('File {0}', workspacePath), l10n.t('changed in this step')];
  if (lines) parts.push(lines.added === 1 ? l10n.t('1 line added') : l10n.t('{0} lines added', lines.added), l10n.t('{0} removed', lines.removed));
  return parts.join(', ');
}

/** "Tool call Read hello.ts, read, completed". */
export function callSentence(title: string, kind?: string, status?: string, l10n: L10n = english): string {
  return [l10n.t('Tool call {0}', short(title, 120)), kind && kind !== 'other' ? kind : undefined, status ? statusWords(status, l10n) : undefined]
    .filter(Boolean)
    .join(', ');
}

/** What kind of row it is, said first (by its contextValue's first facet); '' for none. */
function rowKind(facet: string, l10n: L10n): string {
  switch (facet) {
    case 'agent':
      return l10n.t('Agent {0}');
    case 'session':
      return l10n.t('Session {0}');
    case 'plan':
      return l10n.t('Plan {0}');
    case 'background':
      return l10n.t('Background work {0}');
    case 'entry':
      return l10n.t('Step {0}');
    case 'heading':
      return l10n.t('Section {0}');
    case 'field':
      return l10n.t('Field {0}');
    case 'replay':
      return l10n.t('Replayed recording {0}');
    default:
      return '';
  }
}

/**
 * Any row, from what it shows: its kind, label and description, the description's separators and
 * symbols said as words ("2/5" → "2 of 5", "·" → a comma).
 */
export function rowSentence(label: string, description: string | undefined, contextValue: string | undefined, l10n: L10n = english): string {
  const kind = rowKind((contextValue ?? '').split(':')[0] ?? '', l10n);
  const said = (description ?? '')
    .split(' · ')
    .map((p) => p.replace(/\b(\d+)\/(\d+)\b/g, (_, a: string, b: string) => l10n.t('{0} of {1}', a, b)).trim())
    .filter(Boolean);
  return [kind ? kind.replace('{0}', short(label)) : short(label), ...said].join(', ');
}

/** A row's label as text (a TreeItem label is a string or `{ label }`). */
export function labelOf(label: string | { readonly label: string } | undefined): string {
  return typeof label === 'string' ? label : (label?.label ?? '');
}
