// Rendering of content blocks: streamed Markdown text, images, links, embedded resources.
import type { BlockView } from '../../src/ui/conversation/webviewMessages';
import { h } from './dom';
import { isAllowedLink } from './markdown';
import { StreamingMarkdown } from './markdownStream';
import { S, fill } from './strings';

/** Markdown that grows: settled parts are rendered once, only what changes is rendered again (markdownStream.ts). */
export class MarkdownStream {
  readonly el = h('div', { class: 'md' });
  private readonly settled = h('div', { class: 'md-settled' });
  private readonly tailEl = h('div', { class: 'md-tail' });
  private readonly model: StreamingMarkdown;
  /** The open table's body, the rows of the line being written, and the line saying how many rows are not shown. */
  private table: { body: HTMLTableSectionElement; pending: Element[]; more: HTMLElement } | undefined;

  constructor(text = '') {
    this.el.append(this.settled, this.tailEl);
    // Every HTML string here is markdown-it's output with html disabled (see markdown.ts).
    this.model = new StreamingMarkdown({
      settle: (html) => {
        this.settled.append(part(html));
      },
      tail: (html) => {
        this.tailEl.innerHTML = html;
      },
      // Plain text continuing the last paragraph: added to its text, so the paragraph is not built
      // again (and laid out from scratch) for every streamed word.
      tailAppend: (text, split) => {
        const p = this.tailEl.lastElementChild;
        if (p?.tagName !== 'P') return false;
        if (split) {
          p.after(h('p', { class: 'md-cont', text }));
          return true;
        }
        const last = p.lastChild;
        if (last instanceof Text) last.appendData(text);
        else p.append(text);
        return true;
      },
      tableOpen: (html) => {
        const p = part(html);
        const table = p.querySelector('table');
        const more = h('p', { class: 'md-table-more' });
        more.hidden = true;
        p.append(more);
        this.table = table ? { body: table.tBodies[0] ?? table.createTBody(), pending: [], more } : undefined;
        this.settled.append(p);
      },
      tableRows: (html) => {
        const t = this.table;
        if (t) for (const tr of bodyRows(html)) t.body.insertBefore(tr, t.pending[0] ?? null);
      },
      tablePending: (html) => {
        const t = this.table;
        if (!t) return;
        for (const tr of t.pending) tr.remove();
        t.pending = html ? bodyRows(html) : [];
        t.body.append(...t.pending);
      },
      tableMore: (text) => {
        if (!this.table) return;
        this.table.more.textContent = text;
        this.table.more.hidden = false;
      },
      tableClose: () => {
        this.table = undefined;
      },
    });
    if (text) this.append(text);
  }

  get length(): number {
    return this.model.length;
  }

  append(text: string): void {
    this.model.append(text);
  }
}

/** A settled part holding markdown-it's output. */
function part(html: string): HTMLElement {
  const p = h('div', { class: 'md-part' });
  p.innerHTML = html;
  return p;
}

/** The body rows of markdown-it's render of a table (parsed inert, in a template). */
function bodyRows(html: string): Element[] {
  const tpl = document.createElement('template');
  tpl.innerHTML = html;
  return Array.from(tpl.content.querySelectorAll('tbody > tr'));
}

export function linkElement(uri: string, label: string, cls: string): HTMLElement {
  if (isAllowedLink(uri)) return h('a', { class: cls, text: label, title: uri, attrs: { href: uri } });
  return h('span', { class: `${cls} link-disabled`, text: label, title: uri });
}

/** A rendered block; `stream` is set for text, which can be appended to. */
export interface RenderedBlock {
  el: HTMLElement;
  stream?: MarkdownStream;
}

export function renderBlock(b: BlockView): RenderedBlock {
  switch (b.type) {
    case 'text': {
      const stream = new MarkdownStream(b.text);
      return { el: stream.el, stream };
    }
    case 'image':
      if (b.src) return { el: h('img', { class: 'block-image', attrs: { src: b.src, alt: b.uri ?? b.mimeType } }) };
      return { el: h('div', { class: 'block-other', text: b.uri ? fill(S.imageAt, b.mimeType, b.uri) : fill(S.image, b.mimeType) }) };
    case 'link':
      return {
        el: h(
          'div',
          { class: 'block-link' },
          linkElement(b.uri, b.title ?? b.name, 'resource-link'),
          b.description ? h('span', { class: 'muted', text: ` — ${b.description}` }) : null,
        ),
      };
    case 'resource': {
      const summary = h('summary', {}, linkElement(b.uri, b.uri, 'resource-link'), b.mimeType ? h('span', { class: 'muted', text: ` ${b.mimeType}` }) : null);
      const body =
        b.text === null ? h('div', { class: 'muted', text: S.binaryContent }) : h('pre', { class: 'resource-text', text: b.text + (b.truncated ? '\n…' : '') });
      return { el: h('details', { class: 'block-resource' }, summary, body) };
    }
    case 'other':
      return { el: h('details', { class: 'block-other' }, h('summary', { text: b.label }), h('pre', { text: b.json })) };
  }
}
