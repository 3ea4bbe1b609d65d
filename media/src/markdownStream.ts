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
  /**
   * Optional: `text` (plain: nothing Markdown would read) continues the tail's last paragraph; the
   * sink adds it to that paragraph as text and returns true, or returns false to have the tail
   * rendered again instead. With `split`, the paragraph is long: the text starts a continuation
   * block of it (the same paragraph, no space between), so no one block of text grows without end.
   */
  tailAppend?(text: string, split?: boolean): boolean;
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
/**
 * A streamed paragraph continues in a new block past this many characters (at a space): the
 * browser lays out and shapes a block's whole text again at every change, so a paragraph of tens
 * of kilobytes cost milliseconds per streamed word. The only trace: a line may end early there.
 */
export const PARAGRAPH_BLOCK = 4096;
/**
 * Text that means nothing to Markdown inside a paragraph's line: no line break, no emphasis, code,
 * link, image, autolink, entity, escape, strikethrough or table characters, no URL scheme (`:`).
 */
const PLAIN = /^[^\n\r\\`*_[\]<>!&~:|]*$/;
/** How a paragraph's line may start and stay a paragraph whatever is appended to it (not a list, heading, quote, fence, break, code). */
const PARAGRAPH_START = /^ {0,3}[^\s#\-+*0-9>`~|=_<[\\!&:]/;
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
  /** The tail ends in a paragraph that plain text can continue without rendering it again. */
  private plainTail = false;
  /** How much of `rest` the sink shows (a render leaves out trailing spaces). */
  private shownLength = 0;
  /** The length of the block the tail's last paragraph is being continued in. */
  private blockLength = 0;

  constructor(private readonly sink: MarkdownSink) {}

  get length(): number {
    return this.total;
  }

  append(text: string): void {
    this.total += text.length;
    if (this.table) this.continueTable(this.table, text);
    else if (this.plainTail && PLAIN.test(text) && !(this.rest.slice(-1) + text).includes('//') && this.continueParagraph(text)) return;
    else {
      this.rest += text;
      this.flow();
    }
  }

  /**
   * Plain text continuing the tail's last paragraph goes to the sink as text. A render ends a
   * paragraph without its trailing spaces, so the text handed on starts where the shown text ended
   * and stops before trailing spaces (they come with the next word).
   */
  private continueParagraph(text: string): boolean {
    const next = (this.rest + text).trimEnd();
    const add = next.slice(this.shownLength);
    const space = add.search(/\s/);
    if (add && this.blockLength + add.length > PARAGRAPH_BLOCK && space >= 0) {
      // Up to the space in this block, the rest in a continuation block.
      if (space > 0 && !this.sink.tailAppend?.(add.slice(0, space))) return false;
      if (!this.sink.tailAppend?.(add.slice(space), true)) return false;
      this.blockLength = add.length - space;
    } else if (add) {
      if (!this.sink.tailAppend?.(add)) return false;
      this.blockLength += add.length;
    }
    this.rest += text;
    this.shownLength = next.length;
    return true;
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
    const html = renderMarkdown(this.rest);
    this.sink.tail(html);
    const para = this.sink.tailAppend ? plainParagraphAtEnd(this.rest, html) : undefined;
    this.plainTail = para !== undefined;
    this.shownLength = this.rest.trimEnd().length;
    this.blockLength = para?.length ?? 0;
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

/**
 * The paragraph `text` (rendered as `html`) ends in, when it is plain text that appending plain
 * text (no line break) only lengthens: its line starts as nothing but a paragraph can, and the
 * render ends with exactly that paragraph. Undefined otherwise.
 */
function plainParagraphAtEnd(text: string, html: string): string | undefined {
  const para = text.slice(streamingSplit(text + '\n'));
  if (!PLAIN.test(para) || para.includes('//') || !PARAGRAPH_START.test(para)) return undefined;
  return html.endsWith(`<p>${para.trim().replace(/"/g, '&quot;')}</p>\n`) ? para : undefined;
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
