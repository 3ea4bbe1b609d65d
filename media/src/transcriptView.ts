// The list of items in the webview: applies the snapshot and deltas, keeps at most `limit` item
// elements in the DOM (the oldest are removed; "Show earlier" asks the extension for them again)
// and follows the bottom unless the user scrolled away from it (follow.ts).
import type { ConversationFilter, DeltaOp, ItemView, SnapshotMessage, TerminalView, WebviewCounters } from '../../src/ui/conversation/webviewMessages';
import { post } from './api';
import { h } from './dom';
import { Follower } from './follow';
import { S, fill } from './strings';
import { renderItem, type RenderedItem } from './items';
import { keepSummaryOpen } from './compaction';
import { Terminals } from './terminals';

const PAGE = 100;

export class TranscriptView {
  readonly el = h('div', { class: 'transcript', attrs: { role: 'log', 'aria-live': 'off', 'aria-label': S.conversation, tabindex: '0' } });
  readonly counters: WebviewCounters = { snapshotsApplied: 0, deltasApplied: 0, opsApplied: 0, itemsRendered: 0, domItems: 0 };
  private readonly list = h('div', { class: 'items' });
  private readonly earlierButton = h('button', { class: 'show-earlier link-like', onClick: () => this.requestEarlier() });
  private readonly empty = h('div', { class: 'empty muted' });
  private readonly filterLabel = h('span', { class: 'filter-label' });
  private readonly filterBar = h(
    'div',
    { class: 'filter-bar', attrs: { role: 'status' } },
    this.filterLabel,
    h('button', { class: 'clear-filter link-like', text: S.showAll, onClick: () => post({ type: 'clearFilter' }) }),
  );
  private filter: { sessionId: string; ids: Set<string> } | null = null;
  private readonly terminals = new Terminals();
  /** Rendered items, ordered by index. */
  private entries: RenderedItem[] = [];
  private readonly byId = new Map<string, RenderedItem>();
  private firstIndex = 0;
  private windowSize = 500;
  private limit = 500;
  private sessionId: string | null = null;
  private readonly follower = new Follower(this.el, this.list);

  constructor() {
    this.el.append(this.filterBar, this.earlierButton, this.list, this.empty);
    this.filterBar.hidden = true;
  }

  get currentSession(): string | null {
    return this.sessionId;
  }

  snapshot(m: SnapshotMessage): void {
    const same = m.sessionId === this.sessionId;
    this.sessionId = m.sessionId;
    this.windowSize = m.windowSize;
    this.limit = m.windowSize;
    this.firstIndex = m.firstIndex;
    this.entries = [];
    this.byId.clear();
    this.list.textContent = '';
    this.terminals.clear();
    m.terminals.forEach((t) => this.terminals.set(t));
    const frag = document.createDocumentFragment();
    for (const v of m.items) {
      const r = this.render(v);
      this.entries.push(r);
      this.byId.set(v.itemId, r);
      frag.append(r.el);
    }
    this.list.append(frag);
    this.counters.snapshotsApplied++;
    this.refreshFilter();
    this.refresh();
    // Another session is read from its end; the same one again keeps where the user scrolled.
    if (!same || this.follower.following) this.follower.reset();
  }

  /**
   * Applies a delta. Nothing here reads the layout: while following, one scroll per frame follows
   * the new content (reading the height after each delta made the browser lay out the whole
   * transcript once per streamed chunk, which at 100 chunks/s held up the workbench sharing the
   * renderer).
   */
  apply(ops: DeltaOp[]): void {
    for (const op of ops) this.applyOp(op);
    this.trim();
    this.counters.deltasApplied++;
    this.counters.opsApplied += ops.length;
    this.refresh();
    this.follower.request();
  }

  /** Brings a card that waits for the user into view and keeps it there while `until` holds. */
  reveal(card: Element, until: () => boolean): void {
    this.follower.reveal(card, until);
  }

  /** Scrolls as the user would (the test hook's stand-in for a wheel). */
  scrollAsUser(top: number): void {
    this.follower.userScrollTo(top);
  }

  /** Older items sent on request: prepended, and kept beyond the usual window. */
  earlier(items: ItemView[], firstIndex: number, terminals: TerminalView[]): void {
    this.firstIndex = firstIndex;
    terminals.forEach((t) => this.terminals.set(t));
    const first = this.entries[0]?.view.index ?? Infinity;
    const older = items.filter((v) => v.index < first && !this.byId.has(v.itemId));
    // What was first stays where it was on screen (the browser may already have kept it there).
    const kept = this.entries[0]?.el;
    const before = kept?.getBoundingClientRect().top ?? 0;
    const frag = document.createDocumentFragment();
    const rendered = older.map((v) => this.render(v));
    for (const r of rendered) {
      frag.append(r.el);
      this.byId.set(r.view.itemId, r);
    }
    this.list.prepend(frag);
    this.entries = [...rendered, ...this.entries];
    this.limit = Math.max(this.limit, this.entries.length);
    this.refresh();
    if (kept) this.el.scrollTop += kept.getBoundingClientRect().top - before;
    this.follower.stick();
  }

  /** Text of each rendered item (for tests and diagnostics). */
  summary(): { itemId: string; kind: string; index: number; text: string }[] {
    return this.entries.map((r) => ({ itemId: r.view.itemId, kind: r.view.kind, index: r.view.index, text: r.el.textContent ?? '' }));
  }

  private applyOp(op: DeltaOp): void {
    switch (op.op) {
      case 'upsert':
        return this.upsert(op.item);
      case 'append':
        return this.byId.get(op.itemId)?.append?.(op.text, op.blocks);
      case 'tool': {
        const r = this.byId.get(op.header.itemId);
        if (r?.tool) r.tool(op.header, op.append);
        return;
      }
      case 'terminal':
        return this.terminals.set(op.terminal);
      case 'terminalAppend':
        return this.terminals.append(op.terminalId, op.text, op.info);
      case 'session':
        return; // handled by the composer and header
      default:
        op satisfies never;
    }
  }

  private upsert(v: ItemView): void {
    const old = this.byId.get(v.itemId);
    if (old) {
      const r = this.render(v);
      keepSummaryOpen(old.el, r.el);
      old.el.replaceWith(r.el);
      this.entries[this.entries.indexOf(old)] = r;
      this.byId.set(v.itemId, r);
      return;
    }
    const last = this.entries[this.entries.length - 1];
    if (last && v.index < this.entries[0].view.index) return; // older than the window: shown on "Show earlier"
    const r = this.render(v);
    this.byId.set(v.itemId, r);
    if (!last || v.index > last.view.index) {
      this.entries.push(r);
      this.list.append(r.el);
      return;
    }
    const at = this.entries.findIndex((e) => e.view.index > v.index);
    this.entries[at].el.before(r.el);
    this.entries.splice(at, 0, r);
  }

  private trim(): void {
    const excess = this.entries.length - this.limit;
    if (excess <= 0) return;
    for (const r of this.entries.slice(0, excess)) {
      r.el.remove();
      this.byId.delete(r.view.itemId);
    }
    this.entries = this.entries.slice(excess);
  }

  private render(v: ItemView): RenderedItem {
    this.counters.itemsRendered++;
    const r = renderItem(v, { terminals: this.terminals, sessionId: () => this.sessionId });
    this.mark(r);
    return r;
  }

  /** Shows only the filter's items (the work of one plan step) while its session is shown. */
  setFilter(f: ConversationFilter | null): void {
    this.filter = f && { sessionId: f.sessionId, ids: new Set(f.itemIds) };
    this.filterLabel.textContent = f ? `${f.label} (${f.itemIds.length} item${f.itemIds.length === 1 ? '' : 's'}) ` : '';
    this.refreshFilter();
  }

  private refreshFilter(): void {
    const on = this.filter !== null && this.filter.sessionId === this.sessionId;
    this.filterBar.hidden = !on;
    this.list.classList.toggle('filtering', on);
    for (const r of this.entries) this.mark(r);
  }

  private mark(r: RenderedItem): void {
    r.el.classList.toggle('in-filter', this.filter?.ids.has(r.view.itemId) === true);
  }

  private requestEarlier(): void {
    if (!this.sessionId) return;
    const first = this.entries[0]?.view.index;
    if (first === undefined) return;
    this.limit = Math.max(this.limit, this.windowSize);
    post({ type: 'loadEarlier', sessionId: this.sessionId, before: first, count: PAGE });
  }

  private refresh(): void {
    this.counters.domItems = this.entries.length;
    const first = this.entries[0]?.view.index;
    const hidden = first === undefined ? 0 : Math.max(0, first - this.firstIndex);
    // Only what changed is written: an unchanged write still costs the browser a style pass.
    setIfChanged(this.earlierButton, hidden === 0, fill(S.showEarlier, hidden));
    setIfChanged(this.empty, this.entries.length > 0, this.sessionId ? S.noMessages : S.noSessionYet);
  }
}

function setIfChanged(el: HTMLElement, hidden: boolean, text: string): void {
  if (el.hidden !== hidden) el.hidden = hidden;
  if (el.textContent !== text) el.textContent = text;
}
