// Markdown for agent text (untrusted). Isomorphic: the webview bundles it, unit tests run it in
// Node. Raw HTML is escaped (`html: false`); links are kept only for http(s) and file URLs (any
// other link, `javascript:` and `command:` included, stays plain text); images become links, as
// the webview loads nothing remote. Tables are shown capped (TABLE_LIMITS): cells and rows past
// the caps are dropped before their text is parsed, and a line below the table says how many.
// Its words (the table note, an image's link text) come from the page's strings table (strings.ts).
import MarkdownIt from 'markdown-it';
import type { WebviewStrings } from '../../src/ui/conversation/webviewStrings';
import { S, fill } from './strings';

type Markdown = InstanceType<typeof MarkdownIt>;
type CoreState = Parameters<Markdown['core']['process']>[0];
type Token = CoreState['tokens'][number];

/** The most of a table shown: columns and body rows past these are counted in a line below it, not rendered. */
export const TABLE_LIMITS = { columns: 50, rows: 500 } as const;

const ALLOWED_LINK = /^(https?:\/\/|file:\/\/)/i;

export function isAllowedLink(url: string): boolean {
  return ALLOWED_LINK.test(url.trim());
}

/** The words a rendering shows (templates with `{0}`): the page's table in the webview. */
export type MarkdownWords = Pick<WebviewStrings, 'imageLink' | 'moreRows' | 'moreColumns' | 'moreColumnsRows'>;

export function createMarkdown(words: MarkdownWords = S): Markdown {
  const md = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: false });
  md.validateLink = (url: string): boolean => isAllowedLink(url);
  md.linkify.set({ fuzzyLink: false, fuzzyEmail: false });

  md.renderer.rules.image = (tokens, idx, options, env, self) => {
    const t = tokens[idx];
    const src = String(t.attrGet('src') ?? '');
    const alt = self.renderInlineAsText(t.children ?? [], options, env) || src;
    return `<a href="${md.utils.escapeHtml(src)}" class="md-image" title="${md.utils.escapeHtml(src)}">${md.utils.escapeHtml(fill(words.imageLink, alt))}</a>`;
  };
  const linkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    const href = String(tokens[idx].attrGet('href') ?? '');
    tokens[idx].attrSet('title', href);
    return linkOpen(tokens, idx, options, env, self);
  };
  const table = md.block.ruler.__rules__.find((r) => r.name === 'table')?.fn;
  if (table)
    md.block.ruler.at('table', (state, start, end, silent) => {
      if (silent || !table(state, start, end, true)) return table(state, start, end, silent);
      // A table starts here: its lines are cut to TABLE_LIMITS.columns cells before markdown-it splits them.
      const { bMarks, tShift, eMarks, src } = state;
      const columns = cellCount(src, bMarks[start]! + tShift[start]!, eMarks[start]!);
      const saved: [number, number][] = [];
      for (let line = start; line < end && bMarks[line]! + tShift[line]! < eMarks[line]!; line++) {
        const cut = cellCut(src, bMarks[line]! + tShift[line]!, eMarks[line]!, TABLE_LIMITS.columns);
        if (cut < eMarks[line]!) saved.push([line, eMarks[line]!]);
        eMarks[line] = cut;
      }
      const first = state.tokens.length;
      let ok = false;
      try {
        ok = table(state, start, end, false);
      } finally {
        for (const [line, e] of saved) eMarks[line] = e;
      }
      if (ok && columns > TABLE_LIMITS.columns) state.tokens[first]!.meta = { columns };
      return ok;
    });
  md.core.ruler.after('block', 'cap_tables', (state) => capTables(state, words));
  return md;
}

/** Where the line [from, end) ends after its first `max` cells (`end` when it has no more); escapes as markdown-it reads them. */
function cellCut(src: string, from: number, end: number, max: number): number {
  let seps = src.charCodeAt(from) === 124 ? -1 : 0;
  let escaped = false;
  for (let pos = from; pos < end; pos++) {
    const ch = src.charCodeAt(pos);
    if (ch === 124 && !escaped && ++seps === max) return pos;
    escaped = ch === 92;
  }
  return end;
}

/** The cells of a table line [from, end) (the header's count is the table's). */
function cellCount(src: string, from: number, end: number): number {
  let seps = 0;
  let escaped = false;
  for (let pos = from; pos < end; pos++) {
    const ch = src.charCodeAt(pos);
    if (ch === 124 && !escaped) seps++;
    escaped = ch === 92;
  }
  const line = src.slice(from, end).trimEnd();
  return seps + 1 - (line.startsWith('|') ? 1 : 0) - (line.endsWith('|') && !line.endsWith('\\|') ? 1 : 0);
}

/** What a parse may say about tables: the most body rows shown (TABLE_LIMITS.rows when absent). */
interface TableEnv {
  [key: string | symbol]: unknown;
  tableRows?: number;
}

const count = (n: number): string => n.toLocaleString('en-US');

/** Drops cells past TABLE_LIMITS.columns and body rows past the row cap (before inline parsing), then says how many. */
function capTables(state: CoreState, words: MarkdownWords): void {
  if (!state.tokens.some((t) => t.type === 'table_open')) return;
  const maxRows = (state.env as TableEnv | undefined)?.tableRows ?? TABLE_LIMITS.rows;
  const out: Token[] = [];
  let body = false;
  let rows = 0;
  let hidden = 0;
  let columns = 0;
  let declared = 0;
  let cell = 0;
  let skipRow = false;
  let skipCell = false;
  for (const t of state.tokens) {
    if (skipRow) {
      skipRow = t.type !== 'tr_close';
      continue;
    }
    if (skipCell) {
      skipCell = t.type !== 'td_close' && t.type !== 'th_close';
      continue;
    }
    switch (t.type) {
      case 'table_open':
        rows = hidden = columns = 0;
        declared = (t.meta as { columns?: number } | null)?.columns ?? 0;
        break;
      case 'tbody_open':
      case 'tbody_close':
        body = t.type === 'tbody_open';
        break;
      case 'tr_open':
        cell = 0;
        if (body && rows++ >= maxRows) {
          hidden++;
          skipRow = true;
          continue;
        }
        break;
      case 'th_open':
      case 'td_open':
        if (t.type === 'th_open') columns++;
        if (++cell > TABLE_LIMITS.columns) {
          skipCell = true;
          continue;
        }
        break;
    }
    out.push(t);
    if (t.type !== 'table_close') continue;
    const said = notShown(Math.max(columns, declared), hidden, words);
    if (said) out.push(...note(state, said));
  }
  state.tokens = out;
}

/** What a table of `columns` columns with `hidden` body rows dropped does not show ('' when all of it shows). */
function notShown(columns: number, hidden: number, words: MarkdownWords): string {
  const moreColumns = columns > TABLE_LIMITS.columns ? count(columns - TABLE_LIMITS.columns) : '';
  const moreRows = hidden ? count(hidden) : '';
  return moreColumns && moreRows
    ? fill(words.moreColumnsRows, moreColumns, moreRows)
    : moreColumns
      ? fill(words.moreColumns, moreColumns)
      : moreRows
        ? fill(words.moreRows, moreRows)
        : '';
}

/** A paragraph (class md-table-more) saying what a table does not show. */
function note(state: CoreState, text: string): Token[] {
  const open = new state.Token('paragraph_open', 'p', 1);
  open.attrSet('class', 'md-table-more');
  open.block = true;
  const inline = new state.Token('inline', '', 0);
  inline.content = text;
  inline.children = [];
  const close = new state.Token('paragraph_close', 'p', -1);
  close.block = true;
  return [open, inline, close];
}

let shared: Markdown | undefined;

/** Renders untrusted Markdown to HTML that is safe to assign to `innerHTML`. */
export function renderMarkdown(src: string): string {
  shared ??= createMarkdown();
  return shared.render(src);
}

/**
 * For a streamed table: renders `head` (a table's header and delimiter lines) followed by `lines`,
 * showing at most `maxRows` body rows. `rows`: how many of the lines (from the first) are rows of
 * the table; the table ended before the others. Undefined when `head` starts no table.
 */
export function renderTableRows(head: string, lines: string, maxRows: number): { rows: number; html: string } | undefined {
  shared ??= createMarkdown();
  const env: TableEnv = { tableRows: maxRows };
  const tokens = shared.parse(head + lines, env);
  const open = tokens[0];
  if (open?.type !== 'table_open' || !open.map || open.map[0] !== 0) return undefined;
  return { rows: open.map[1] - 2, html: shared.renderer.render(tokens, shared.options, env) };
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Where a streamed Markdown text can be cut so that the part before renders the same on its own
 * and never changes again: the start of the last line that follows a blank line, begins at
 * column 0 and is outside a fenced code block. 0 when there is none.
 */
export function streamingSplit(text: string): number {
  let fence: string | null = null;
  let prevBlank = false;
  let best = 0;
  let pos = 0;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    if (nl < 0) break;
    const line = text.slice(pos, nl);
    const blank = line.trim() === '';
    if (!fence && prevBlank && !blank && !/^\s/.test(line)) best = pos;
    const m = FENCE.exec(line);
    if (fence) {
      if (m && m[1][0] === fence[0] && m[1].length >= fence.length && line.slice(m[0].length).trim() === '') fence = null;
      prevBlank = false;
    } else if (m) {
      fence = m[1];
      prevBlank = false;
    } else prevBlank = blank;
    pos = nl + 1;
  }
  return best;
}
