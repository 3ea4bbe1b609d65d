// Rendering of content blocks: streamed Markdown text, images, links, embedded resources.
import type { BlockView } from '../../src/ui/conversation/webviewMessages';
import { h } from './dom';
import { isAllowedLink, renderMarkdown, streamingSplit } from './markdown';

/** Markdown that grows: settled paragraphs are rendered once, only the tail is re-rendered. */
export class MarkdownStream {
  readonly el = h('div', { class: 'md' });
  private readonly settled = h('div', { class: 'md-settled' });
  private readonly tailEl = h('div', { class: 'md-tail' });
  private tail = '';
  private total = 0;

  constructor(text = '') {
    this.el.append(this.settled, this.tailEl);
    if (text) this.append(text);
  }

  get length(): number {
    return this.total;
  }

  append(text: string): void {
    this.tail += text;
    this.total += text.length;
    if (this.tail.length > 2048) {
      const cut = streamingSplit(this.tail);
      if (cut > 0) {
        const part = h('div', { class: 'md-part' });
        part.innerHTML = renderMarkdown(this.tail.slice(0, cut)); // markdown-it, html:false (see markdown.ts)
        this.settled.append(part);
        this.tail = this.tail.slice(cut);
      }
    }
    this.tailEl.innerHTML = renderMarkdown(this.tail);
  }
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
      return { el: h('div', { class: 'block-other', text: `[image ${b.mimeType}${b.uri ? ` ${b.uri}` : ''}]` }) };
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
        b.text === null
          ? h('div', { class: 'muted', text: '(binary content)' })
          : h('pre', { class: 'resource-text', text: b.text + (b.truncated ? '\n…' : '') });
      return { el: h('details', { class: 'block-resource' }, summary, body) };
    }
    case 'other':
      return { el: h('details', { class: 'block-other' }, h('summary', { text: b.label }), h('pre', { text: b.json })) };
  }
}
