// Terminal output in the webview: one record per terminal id, shown by every tool call that
// refers to it. Text is appended as text nodes; past a cap the oldest part is dropped.
import type { TerminalView } from '../../src/ui/conversation/webviewMessages';
import { add, atBottom, h } from './dom';
import { S, fill } from './strings';

const MAX_CHARS = 200_000;
const KEEP_CHARS = 100_000;

type Info = Omit<TerminalView, 'terminalId' | 'text'>;

interface Mount {
  root: HTMLElement;
  head: HTMLElement;
  pre: HTMLElement;
  chars: number;
}
interface Record {
  info: Info;
  text: string;
  mounts: Mount[];
}

export class Terminals {
  private readonly map = new Map<string, Record>();

  clear(): void {
    this.map.clear();
  }

  set(view: TerminalView): void {
    const rec = this.record(view.terminalId);
    rec.info = { command: view.command, cwd: view.cwd, truncated: view.truncated, exit: view.exit };
    rec.text = view.text;
    for (const m of this.live(rec)) {
      this.head(m, rec);
      this.fill(m, rec);
    }
  }

  append(terminalId: string, text: string, info?: Info): void {
    const rec = this.record(terminalId);
    if (info) rec.info = info;
    rec.text += text;
    if (rec.text.length > MAX_CHARS) {
      rec.text = rec.text.slice(rec.text.length - KEEP_CHARS);
      rec.info = { ...rec.info, truncated: true };
    }
    for (const m of this.live(rec)) {
      if (info) this.head(m, rec);
      const follow = atBottom(m.pre);
      if (m.chars + text.length > MAX_CHARS) this.fill(m, rec);
      else if (text) {
        m.pre.append(document.createTextNode(text));
        m.chars += text.length;
      }
      if (follow) m.pre.scrollTop = m.pre.scrollHeight;
    }
  }

  /** An element showing the terminal (kept up to date while it is in the document). */
  mount(terminalId: string): HTMLElement {
    const rec = this.record(terminalId);
    const m: Mount = {
      root: h('div', { class: 'terminal', attrs: { 'data-terminal-id': terminalId } }),
      head: h('div', { class: 'terminal-head' }),
      pre: h('pre', { class: 'terminal-output' }),
      chars: 0,
    };
    m.root.append(m.head, m.pre);
    rec.mounts.push(m);
    this.head(m, rec);
    this.fill(m, rec);
    return m.root;
  }

  private record(id: string): Record {
    let rec = this.map.get(id);
    if (!rec) {
      rec = { info: { command: null, cwd: null, truncated: false, exit: null }, text: '', mounts: [] };
      this.map.set(id, rec);
    }
    return rec;
  }

  /** Mounts still in the document; detached ones are forgotten. */
  private live(rec: Record): Mount[] {
    rec.mounts = rec.mounts.filter((m) => m.root.isConnected);
    return rec.mounts;
  }

  private head(m: Mount, rec: Record): void {
    const i = rec.info;
    m.head.textContent = '';
    add(
      m.head,
      h('span', { class: 'terminal-command', text: i.command ? `$ ${i.command}` : S.terminal }),
      i.cwd ? h('span', { class: 'terminal-cwd', text: fill(S.terminalIn, i.cwd) }) : null,
      i.exit ? h('span', { class: 'terminal-exit', text: ` · ${i.exit}` }) : h('span', { class: 'terminal-running', text: S.running }),
    );
  }

  private fill(m: Mount, rec: Record): void {
    m.pre.textContent = (rec.info.truncated ? `${S.earlierOutput}\n` : '') + rec.text;
    m.chars = rec.text.length;
    m.pre.scrollTop = m.pre.scrollHeight;
  }
}
