// Tiny DOM helpers for the webview. Text always goes through text nodes (never innerHTML);
// the only HTML inserted anywhere is markdown-it's output (see markdown.ts).

type Child = Node | string | null | undefined | false;

export interface Props {
  class?: string;
  text?: string;
  title?: string;
  attrs?: Record<string, string>;
  onClick?: (e: MouseEvent) => void;
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props.class) el.className = props.class;
  if (props.text !== undefined) el.textContent = props.text;
  if (props.title !== undefined) el.title = props.title;
  if (props.attrs) for (const [k, v] of Object.entries(props.attrs)) el.setAttribute(k, v);
  if (props.onClick) {
    const fn = props.onClick;
    el.addEventListener('click', (e) => fn(e as MouseEvent));
  }
  add(el, ...children);
  return el;
}

/** Appends children, skipping null/undefined/false; strings become text nodes. */
export function add(el: Element, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'string' ? document.createTextNode(c) : c);
  }
}

/** True when the element is scrolled (nearly) to its bottom. */
export function atBottom(el: HTMLElement, slack = 40): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight <= slack;
}
