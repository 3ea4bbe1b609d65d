// Remembers what one webview was sent for a session and turns changed items into the smallest
// ops: text appended to a message, content appended to a tool call, output appended to a
// terminal; a whole item only when it is new or was replaced. Pure; no `vscode`.
import type { L10n } from '../../common/l10n';
import { textFrom, type SessionTranscript, type TranscriptItem } from '../../state/transcript';
import type { DeltaOp, ItemView, TerminalView, ToolContentView } from './webviewMessages';
import { exitText, itemView, partView, terminalView, toolContentView, toolHeaderView, type SessionNamer } from './viewModel';

type Sent = { kind: 'message'; rev: number; parts: number; lastLength: number } | { kind: 'tool'; contentRev: number; contentLen: number } | { kind: 'other' };

interface SentTerminal {
  rev: number;
  end: number;
  info: string;
}

export class DeltaTracker {
  private readonly sent = new Map<string, Sent>();
  private readonly terms = new Map<string, SentTerminal>();

  /** `names`: titles for the sessions an inter-session message names. */
  constructor(
    readonly session: SessionTranscript,
    private readonly names?: SessionNamer,
    private readonly l10n?: L10n,
  ) {}

  /** The newest `count` items and the terminals they show; tracking starts over. */
  snapshot(count: number): { items: ItemView[]; firstIndex: number; terminals: TerminalView[] } {
    this.sent.clear();
    this.terms.clear();
    const from = Math.max(this.session.firstIndex, this.session.endIndex - count);
    return this.range(from, this.session.endIndex);
  }

  /** Up to `count` items before absolute index `before`. */
  earlier(before: number, count: number): { items: ItemView[]; firstIndex: number; terminals: TerminalView[] } {
    const to = Math.min(before, this.session.endIndex);
    return this.range(Math.max(this.session.firstIndex, to - count), to);
  }

  /** Ops bringing the webview's copy of an item up to date (empty when the item is gone). */
  itemOps(itemId: string): DeltaOp[] {
    const item = this.session.item(itemId);
    const index = this.session.indexOf(itemId);
    if (!item || index === undefined) return [];
    const ops: DeltaOp[] = [];
    const prev = this.sent.get(itemId);
    // A compaction's summary streams like a message's text.
    if ((item.kind === 'message' || item.kind === 'compaction') && prev?.kind === 'message' && prev.rev === item.rev && prev.parts <= item.parts.length) {
      const op: Extract<DeltaOp, { op: 'append' }> = { op: 'append', itemId };
      const last = prev.parts > 0 ? item.parts[prev.parts - 1] : undefined;
      if (last?.type === 'text' && last.length > prev.lastLength) op.text = textFrom(last, prev.lastLength);
      if (item.parts.length > prev.parts) op.blocks = item.parts.slice(prev.parts).map((p) => partView(p, this.l10n));
      this.remember(item);
      if (op.text !== undefined || op.blocks) ops.push(op);
      return ops;
    }
    if (item.kind === 'tool_call' && prev?.kind === 'tool' && prev.contentRev === item.contentRev && prev.contentLen <= item.content.length) {
      const append = item.content.slice(prev.contentLen).map((c, i) => toolContentView(c, prev.contentLen + i, this.l10n));
      this.terminalsFor(append, ops);
      ops.push({ op: 'tool', header: toolHeaderView(item, index, this.l10n), append });
      this.remember(item);
      return ops;
    }
    const view = this.full(item, index, ops);
    ops.push({ op: 'upsert', item: view });
    return ops;
  }

  /** Ops bringing the webview's copy of a terminal up to date. */
  terminalOps(terminalId: string): DeltaOp[] {
    const t = this.session.terminal(terminalId);
    if (!t) return [];
    const prev = this.terms.get(terminalId);
    const info = { command: t.command, cwd: t.cwd, truncated: t.truncated, exit: exitText(t, this.l10n) };
    const infoKey = JSON.stringify(info);
    if (!prev || prev.rev !== t.rev || prev.end < t.firstChunkIndex) return [this.fullTerminal(terminalId)!];
    const op: Extract<DeltaOp, { op: 'terminalAppend' }> = { op: 'terminalAppend', terminalId, text: t.textFrom(prev.end) };
    if (infoKey !== prev.info) op.info = info;
    this.terms.set(terminalId, { rev: t.rev, end: t.endChunkIndex, info: infoKey });
    return op.text || op.info ? [op] : [];
  }

  private range(from: number, to: number): { items: ItemView[]; firstIndex: number; terminals: TerminalView[] } {
    const extra: DeltaOp[] = [];
    const items = this.session.slice(from, to).map((item, i) => this.full(item, from + i, extra));
    const terminals = extra.flatMap((op) => (op.op === 'terminal' ? [op.terminal] : []));
    return { items, firstIndex: this.session.firstIndex, terminals };
  }

  private full(item: TranscriptItem, index: number, ops: DeltaOp[]): ItemView {
    const view = itemView(item, index, this.names, this.l10n);
    if (view.kind === 'tool_call') this.terminalsFor(view.content, ops);
    this.remember(item);
    return view;
  }

  private remember(item: TranscriptItem): void {
    if (item.kind === 'message' || item.kind === 'compaction') {
      const last = item.parts[item.parts.length - 1];
      this.sent.set(item.itemId, { kind: 'message', rev: item.rev, parts: item.parts.length, lastLength: last?.type === 'text' ? last.length : 0 });
    } else if (item.kind === 'tool_call') {
      this.sent.set(item.itemId, { kind: 'tool', contentRev: item.contentRev, contentLen: item.content.length });
    } else this.sent.set(item.itemId, { kind: 'other' });
  }

  /** Terminals shown by these contents that the webview was never sent, sent first. */
  private terminalsFor(contents: ToolContentView[], ops: DeltaOp[]): void {
    for (const c of contents) {
      if (c.type !== 'terminal' || this.terms.has(c.terminalId)) continue;
      const op = this.fullTerminal(c.terminalId);
      if (op) ops.push(op);
    }
  }

  private fullTerminal(terminalId: string): DeltaOp | undefined {
    const t = this.session.terminal(terminalId);
    if (!t) return undefined;
    const view = terminalView(t, this.l10n);
    const info = { command: t.command, cwd: t.cwd, truncated: t.truncated, exit: exitText(t, this.l10n) };
    this.terms.set(terminalId, { rev: t.rev, end: t.endChunkIndex, info: JSON.stringify(info) });
    return { op: 'terminal', terminal: view };
  }
}
