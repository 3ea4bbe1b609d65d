// A context compaction row: its status in words, the token counts, the error of a failed one, and
// the summary folded under it (closed until opened; untrusted Markdown through MarkdownStream).
import type { BlockView, CompactionView } from '../../src/ui/conversation/webviewMessages';
import { MarkdownStream, renderBlock } from './blocks';
import { h } from './dom';
import { S } from './strings';

export interface RenderedCompaction {
  el: HTMLElement;
  /** Appends summary text (continuing its last text block) and blocks. */
  append(text: string | undefined, blocks: BlockView[] | undefined): void;
}

export function compaction(view: CompactionView): RenderedCompaction {
  const blocksEl = h('div', { class: 'blocks' });
  const fold = h('details', { class: 'compaction-summary' }, h('summary', { text: S.compactionSummary }), blocksEl);
  let last: MarkdownStream | undefined;
  const add = (b: BlockView): void => {
    const r = renderBlock(b);
    blocksEl.append(r.el);
    last = r.stream;
    fold.hidden = false;
  };
  fold.hidden = true;
  view.blocks.forEach(add);
  const el = h(
    'div',
    {
      class: `compaction status-${view.status
        .toLowerCase()
        .replace(/[^a-z0-9_-]+/g, '-')
        .slice(0, 40)}`,
    },
    h(
      'div',
      { class: 'compaction-line' },
      h('span', { class: 'compaction-label', text: view.label }),
      view.tokens ? h('span', { class: 'muted', text: ` · ${view.tokens}` }) : null,
    ),
    view.error ? h('div', { class: 'compaction-error', text: view.error }) : null,
    fold,
    view.truncated ? h('div', { class: 'truncated-note muted', text: view.truncated }) : null,
  );
  return {
    el,
    append(text, blocks) {
      if (text) {
        if (last) last.append(text);
        else add({ type: 'text', text });
      }
      blocks?.forEach(add);
    },
  };
}

/** A compaction shown again (its status changed) keeps its summary open when the user had opened it. */
export function keepSummaryOpen(old: HTMLElement, next: HTMLElement): void {
  if (old.querySelector<HTMLDetailsElement>(':scope > details.compaction-summary')?.open) {
    next.querySelector<HTMLDetailsElement>(':scope > details.compaction-summary')?.setAttribute('open', '');
  }
}
