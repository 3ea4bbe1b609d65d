// The DOM-free half of streamed Markdown (blocks.ts MarkdownStream is the DOM half): decides what
// to render as text arrives and tells a sink, so that the work per delta follows the delta, not
// the message. Text before the last block boundary (streamingSplit) is rendered once and settled.
// A table that starts at a block boundary is rendered row by row: its header once, each completed
// row once (rendered with the header, so alignment and cell count match a whole render), the row
// still being written on every delta; rows past TABLE_LIMITS.rows are counted, not rendered. When a
// line is no longer a row the table is closed and the text flows on. Isomorphic: unit tests run it
// in Node with a recording sink. Every HTML string is markdown-it's output (html disabled).
import { renderMarkdown, renderTableRows, streamingSplit, TABLE_LIMITS } from './markdown';
import { S, fill } from './strings';

/** Where rendered Markdown goes. */
export interface MarkdownSink {
  /** A finished part: rendered once, never changes. */
  settle(html: string): void;
  /** The part still growing (after the settled parts and any open table), replaced on every change. */
  tail(html: string): void;
  /** A table starts (its header, and a line saying how many columns are not shown); rows follow. */
  tableOpen(html: string): void;
  /** Completed rows of the open table: the `<tbody>` rows of `html`. */
  tableRows(html: string): void;
  /** The row still being written: the `<tbody>` rows of `html` ('' for none), replaced on every change. */
  tablePending(html: string): void;
  /** A line below the open table saying how many rows are not shown (text, not HTML). */
  tableMore(text: string): void;
  /** The open table ended. */
  tableClose(): void;
}

/** Text not settled is rendered again on every delta; past this it is settled where it can be. */
const SETTLE_AT = 2048;
/** A table's header line, then its delimiter line (markdown-it decides; this only picks candidates). */
const DELIMITER = /^ {0,3}\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

interface OpenTable {
  head: string;
  shown: number;
  hidden: number;
  /** The line being written (no newline yet). */
  pending: string;
}

export class StreamingMarkdown {
  private rest = '';
  private total = 0;
  private table: OpenTable | undefined;

  constructor(private readonly sink: MarkdownSink) {}

  get length(): number {
    return this.total;
  }

  append(text: string): void {
    this.total += text.length;
    if (this.table) this.continueTable(this.table, text);
    else {
      this.rest += text;
      this.flow();
    }
  }

  /** Outside a table: a table starting at the last block boundary opens; long text settles; the rest is the tail. */
  private flow(): void {
    const cut = streamingSplit(this.rest);
    const head = tableHead(this.rest, cut);
    if (head !== undefined && renderTableRows(head, '', 0)) {
      if (cut > 0) this.sink.settle(renderMarkdown(this.rest.slice(0, cut)));
      this.sink.tail('');
      this.sink.tableOpen(renderMarkdown(head));
      const table: OpenTable = { head, shown: 0, hidden: 0, pending: '' };
      this.table = table;
      const after = this.rest.slice(cut + head.length);
      this.rest = '';
      this.continueTable(table, after);
      return;
    }
    if (this.rest.length > SETTLE_AT && cut > 0) {
      this.sink.settle(renderMarkdown(this.rest.slice(0, cut)));
      this.rest = this.rest.slice(cut);
    }
    this.sink.tail(renderMarkdown(this.rest));
  }

  private continueTable(t: OpenTable, text: string): void {
    t.pending += text;
    const nl = t.pending.lastIndexOf('\n');
    if (nl >= 0) {
      const lines = t.pending.slice(0, nl + 1);
      t.pending = t.pending.slice(nl + 1);
      const room = TABLE_LIMITS.rows - t.shown;
      const r = renderTableRows(t.head, lines, room)!;
      const shown = Math.min(r.rows, room);
      if (shown > 0) this.sink.tableRows(r.html);
      t.shown += shown;
      if (r.rows > shown) {
        t.hidden += r.rows - shown;
        this.sink.tableMore(fill(S.moreRows, t.hidden.toLocaleString('en-US')));
      }
      const ended = lineStart(lines, r.rows);
      if (ended < lines.length) {
        // A line that is no row ends the table; what follows flows as any text.
        this.sink.tablePending('');
        this.sink.tableClose();
        this.table = undefined;
        this.rest = lines.slice(ended) + t.pending;
        this.flow();
        return;
      }
    }
    const room = TABLE_LIMITS.rows - t.shown;
    const r = t.pending ? renderTableRows(t.head, t.pending, room > 0 ? 1 : 0)! : { rows: 0, html: '' };
    // A partial line that is a row shows in the table (past the cap, nowhere); anything else as text below it.
    this.sink.tablePending(r.rows === 1 && room > 0 ? r.html : '');
    this.sink.tail(r.rows === 1 || !t.pending ? '' : renderMarkdown(t.pending));
  }
}

/** The header and delimiter lines (with their newlines) when the text from `at` starts with them. */
function tableHead(text: string, at: number): string | undefined {
  const nl1 = text.indexOf('\n', at);
  if (nl1 < 0) return undefined;
  const nl2 = text.indexOf('\n', nl1 + 1);
  if (nl2 < 0) return undefined;
  if (!text.slice(at, nl1).includes('|') || !DELIMITER.test(text.slice(nl1 + 1, nl2))) return undefined;
  return text.slice(at, nl2 + 1);
}

/** Where line `n` (0-based) of `lines` starts (its length when there are fewer lines). */
function lineStart(lines: string, n: number): number {
  let pos = 0;
  for (let i = 0; i < n && pos < lines.length; i++) pos = lines.indexOf('\n', pos) + 1 || lines.length;
  return pos;
}
