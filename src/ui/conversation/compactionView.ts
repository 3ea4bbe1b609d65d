// A context compaction as the conversation shows it: one row worded by its status, with the token
// counts before → after when the agent gave them and its summary's blocks. Pure (no `vscode`).
import type { L10n } from '../../common/l10n';
import type { CompactionItem, MessagePart, Truncation } from '../../state/transcript';
import type { BlockView, CompactionView } from './webviewMessages';

/** `partView` and `truncationText`: the message's own (viewModel.ts), so the summary reads as a message does. */
export function compactionView(
  item: CompactionItem,
  index: number,
  l10n: L10n,
  partView: (p: MessagePart, l10n: L10n) => BlockView,
  truncationText: (t: Truncation, what: 'message', l10n: L10n) => string,
): CompactionView {
  return {
    kind: 'compaction',
    itemId: item.itemId,
    index,
    status: item.status,
    label: compactionLabel(item.status, l10n),
    tokens: tokensText(item.tokens, l10n),
    error: item.error,
    blocks: item.parts.map((p) => partView(p, l10n)),
    truncated: item.truncated ? truncationText(item.truncated, 'message', l10n) : null,
  };
}

function compactionLabel(status: string, l10n: L10n): string {
  switch (status) {
    case 'in_progress':
      return l10n.t('Compacting context…');
    case 'completed':
      return l10n.t('Context compacted');
    case 'failed':
      return l10n.t('Context compaction failed');
    case 'cancelled':
      return l10n.t('Context compaction cancelled');
    default:
      return l10n.t('Context compaction ({0})', status);
  }
}

function tokensText(t: CompactionItem['tokens'], l10n: L10n): string | null {
  if (!t) return null;
  if (t.before !== undefined && t.after !== undefined) return l10n.t('{0} → {1} tokens', t.before, t.after);
  if (t.before !== undefined) return l10n.t('{0} tokens before', t.before);
  if (t.after !== undefined) return l10n.t('{0} tokens after', t.after);
  return null;
}
