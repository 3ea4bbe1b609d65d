// Streamed Markdown (media/src/markdownStream.ts) does markdown-it work in proportion to what
// arrived, not to what is already shown: a growing table is not parsed again on every delta. The
// work is counted as the characters handed to markdown-it's parser (every render parses first).
// What the sink ends up showing is what markdown-it renders for the whole text, and big tables are
// shown capped (TABLE_LIMITS) whether streamed or rendered at once.
import { strict as assert } from 'node:assert';
import MarkdownIt from 'markdown-it';
import { createMarkdown, renderMarkdown, TABLE_LIMITS } from '../../../media/src/markdown';
import { webviewStrings } from '../../../src/ui/conversation/webviewStrings';
import { german } from '../l10n/german';
import { PARAGRAPH_BLOCK, StreamingMarkdown, type MarkdownSink } from '../../../media/src/markdownStream';

/** Rebuilds, as one HTML string, what a DOM sink would show. */
class StringSink implements MarkdownSink {
  private parts: (string | { open: string; rows: string[]; pending: string; more: string })[] = [];
  private current: { open: string; rows: string[]; pending: string; more: string } | undefined;
  private tailHtml = '';

  settle(html: string): void {
    this.parts.push(html);
  }
  tail(html: string): void {
    this.tailHtml = html;
  }
  tableOpen(html: string): void {
    this.current = { open: html, rows: [], pending: '', more: '' };
    this.parts.push(this.current);
  }
  tableRows(html: string): void {
    this.current!.rows.push(bodyRows(html));
  }
  tablePending(html: string): void {
    this.current!.pending = html ? bodyRows(html) : '';
  }
  tableMore(text: string): void {
    this.current!.more = text;
  }
  tableClose(): void {
    this.current!.pending = '';
    this.current = undefined;
  }
  get html(): string {
    const part = (p: (typeof this.parts)[number]): string => {
      if (typeof p === 'string') return p;
      const body = p.rows.join('') + p.pending;
      const table = body ? p.open.replace('</table>', `<tbody>\n${body}</tbody>\n</table>`) : p.open;
      return p.more ? `${table}<p>${p.more}</p>\n` : table;
    };
    return this.parts.map(part).join('') + this.tailHtml;
  }
}

function bodyRows(html: string): string {
  const m = /<tbody>\n([\s\S]*)<\/tbody>/.exec(html);
  assert.ok(m, `rows in ${html}`);
  return m[1]!;
}

/** Characters markdown-it parses while `fn` runs. */
function parsed(fn: () => void): number {
  const proto = MarkdownIt.prototype as unknown as { parse: (src: string, env: unknown) => unknown };
  const orig = proto.parse;
  let n = 0;
  proto.parse = function (this: unknown, src: string, env: unknown) {
    n += src.length;
    return orig.call(this, src, env);
  };
  try {
    fn();
  } finally {
    proto.parse = orig;
  }
  return n;
}

const row = (cells: string[]): string => `| ${cells.join(' | ')} |\n`;
function table(columns: number, rows: number): string {
  const head = row(Array.from({ length: columns }, (_, c) => `h${c}`)) + row(Array.from({ length: columns }, () => '---'));
  return head + Array.from({ length: rows }, (_, r) => row(Array.from({ length: columns }, (_, c) => `*r${r}c${c}*`))).join('');
}
/** Splits `text` into deltas of about `size` characters. */
const deltas = (text: string, size: number): string[] => Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));

describe('StreamingMarkdown: the work per delta is proportional to the delta', () => {
  it('a 200-row table streamed in 400 deltas: markdown-it parses about as much for the last delta as for the first, and the result is the whole render', () => {
    const text = `Results:\n\n${table(5, 200)}\nThat is all.\n`;
    const parts = deltas(text, Math.ceil(text.length / 400));
    const sink = new StringSink();
    const stream = new StreamingMarkdown(sink);
    const perDelta = parts.map((d) => parsed(() => stream.append(d)));
    const total = perDelta.reduce((a, b) => a + b, 0);
    const early = Math.max(...perDelta.slice(20, 60));
    const late = Math.max(...perDelta.slice(-60, -20));
    assert.ok(late <= 2 * early + 200, `per delta: early ≤ ${early} chars, late ≤ ${late} chars`);
    assert.ok(total <= 10 * text.length, `parsed ${total} chars for a ${text.length}-char text`);
    assert.equal(sink.html, renderMarkdown(text));
  });

  it('streams text after a table, a second table and a fence as they render whole', () => {
    const text = `${table(3, 30)}\nBetween *the* tables.\n\n${table(2, 10)}> a quote ends it\n\n\`\`\`\n| not | a table |\n|---|---|\n\`\`\`\ndone\n`;
    for (const size of [1, 7, 64]) {
      const sink = new StringSink();
      const stream = new StreamingMarkdown(sink);
      for (const d of deltas(text, size)) stream.append(d);
      assert.equal(sink.html, renderMarkdown(text), `deltas of ${size}`);
    }
  });
});

describe('Markdown tables are shown capped', () => {
  it(`a 2,000-column table renders ${TABLE_LIMITS.columns} columns and says how many more`, () => {
    let html = '';
    const work = parsed(() => {
      html = renderMarkdown(table(2_000, 3));
    });
    assert.equal(html.match(/<th>/g)?.length, TABLE_LIMITS.columns);
    assert.equal(html.match(/<td>/g)?.length, 3 * TABLE_LIMITS.columns);
    assert.match(html, /1,950 more columns/);
    assert.ok(work > 0);
  });

  it("says what it does not show in the page's words (the strings table, vscode.l10n on the host); English by default", () => {
    const both = table(TABLE_LIMITS.columns + 2, TABLE_LIMITS.rows + 3);
    assert.match(renderMarkdown(both), /<p class="md-table-more">… 2 more columns and 3 more rows not shown<\/p>/);
    const de = createMarkdown(webviewStrings(german));
    assert.match(de.render(both), /<p class="md-table-more">… 2 weitere Spalten und 3 weitere Zeilen nicht angezeigt<\/p>/);
    assert.match(de.render(table(TABLE_LIMITS.columns + 2, 1)), /… 2 weitere Spalten nicht angezeigt/);
    assert.match(de.render(table(2, TABLE_LIMITS.rows + 3)), /… 3 weitere Zeilen nicht angezeigt/);
    assert.match(de.render('![Logo](https://example.com/logo.png)'), /class="md-image"[^>]*>\[Bild: Logo\]<\/a>/);
    assert.match(renderMarkdown('![Logo](https://example.com/logo.png)'), />\[image: Logo\]<\/a>/);
  });

  it(`a table of ${TABLE_LIMITS.rows + 100} rows renders ${TABLE_LIMITS.rows} and says how many more`, () => {
    const html = renderMarkdown(table(2, TABLE_LIMITS.rows + 100));
    assert.equal(html.match(/<tr>/g)?.length, TABLE_LIMITS.rows + 1);
    assert.match(html, /100 more rows/);
  });

  it('a streamed 2,000-column table shows capped rows, and streamed rows past the cap are counted, not shown', () => {
    const sink = new StringSink();
    const stream = new StreamingMarkdown(sink);
    for (const d of deltas(table(2_000, 3), 500)) stream.append(d);
    assert.equal(sink.html.match(/<td>/g)?.length, 3 * TABLE_LIMITS.columns);
    const long = new StringSink();
    const s2 = new StreamingMarkdown(long);
    for (const d of deltas(table(2, TABLE_LIMITS.rows + 100), 50)) s2.append(d);
    assert.equal(long.html.match(/<tr>/g)?.length, TABLE_LIMITS.rows + 1);
    assert.match(long.html, /100 more rows/);
  });
});

/** A sink that, like the DOM one, continues the tail's last paragraph with plain text. */
class AppendingSink extends StringSink {
  appended = 0;
  private tailText = '';
  override tail(html: string): void {
    super.tail(html);
    this.tailText = html;
  }
  splits = 0;
  tailAppend(text: string, split?: boolean): boolean {
    if (!this.tailText.endsWith('</p>\n')) return false;
    const cont = split ? '</p>\n<p class="md-cont">' : '';
    this.tailText = this.tailText.slice(0, -'</p>\n'.length) + cont + text.replace(/"/g, '&quot;') + '</p>\n';
    super.tail(this.tailText);
    this.appended++;
    if (split) this.splits++;
    return true;
  }
  /** The paragraph as one, continuation blocks joined (what the blocks read as). */
  get joined(): string {
    return this.html.replace(/<\/p>\n<p class="md-cont">/g, '');
  }
  /** The longest paragraph block's text. */
  get longestBlock(): number {
    return Math.max(...this.html.split(/<p[^>]*>/).map((b) => b.length));
  }
}
/** Equal, without printing two long texts. */
function same(actual: string, expected: string, what: string): void {
  if (actual === expected) return;
  let i = 0;
  while (actual[i] === expected[i]) i++;
  assert.fail(
    `${what}: differs at ${i}: ${JSON.stringify(actual.slice(Math.max(0, i - 30), i + 30))} vs ${JSON.stringify(expected.slice(Math.max(0, i - 30), i + 30))}`,
  );
}

describe('StreamingMarkdown: plain text continues the last paragraph without a new render', () => {
  it('a paragraph streamed in 2,000 words is rendered once and then only appended to, and shows what the whole render shows', () => {
    const words = Array.from({ length: 2000 }, (_, k) => `‹${k}@1764750000000.${k % 10}› `);
    const sink = new AppendingSink();
    const stream = new StreamingMarkdown(sink);
    const work = parsed(() => words.forEach((w) => stream.append(w)));
    assert.ok(sink.appended >= 1990, `appended ${sink.appended} of 2000`);
    assert.ok(work < 2000, `markdown-it parsed ${work} chars`);
    same(sink.joined, renderMarkdown(words.join('')), 'streamed');
    assert.ok(sink.splits >= 10, `the ${words.join('').length}-char paragraph continues in ${sink.splits + 1} blocks`);
    assert.ok(sink.longestBlock <= PARAGRAPH_BLOCK + 64, `longest block ${sink.longestBlock} chars`);
  });

  it('falls back to a render for anything Markdown reads: emphasis, links, a list start, a new line', () => {
    for (const parts of [
      ['Some text', ' and *more*', ' words'],
      ['See ', 'https', '://example.com', ' now'],
      ['1', '2', '. item'],
      ['-', '-', '-'],
      ['A line', '\n', '# Heading'],
      ['Text "quoted"', ' more'],
      ['a paragraph\n\n', 'then another', ' one', '\n\n- a list'],
      ['path //', 'host'],
    ]) {
      const sink = new AppendingSink();
      const stream = new StreamingMarkdown(sink);
      for (const p of parts) stream.append(p);
      same(sink.joined, renderMarkdown(parts.join('')), JSON.stringify(parts));
    }
  });

  it('any text in any deltas shows what the whole render shows (property)', () => {
    const alphabet = [
      'a',
      'b',
      ' ',
      ' ',
      '1',
      '.',
      '-',
      '*',
      '_',
      '`',
      '[',
      ']',
      '(',
      ')',
      ':',
      '/',
      '#',
      '>',
      '|',
      '"',
      '&',
      '<',
      '\n',
      '\n\n',
      'x',
      'word ',
      '‹',
      '»',
      '~',
    ];
    let seed = 7;
    const rnd = (n: number): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed % n);
    for (let run = 0; run < 400; run++) {
      const text = Array.from({ length: 5 + rnd(60) }, () => alphabet[rnd(alphabet.length)]).join('');
      const sink = new AppendingSink();
      const stream = new StreamingMarkdown(sink);
      let at = 0;
      while (at < text.length) {
        const n = 1 + rnd(6);
        stream.append(text.slice(at, at + n));
        at += n;
      }
      same(sink.joined, renderMarkdown(text), JSON.stringify(text));
    }
  });

  it('long paragraphs with now and then something Markdown reads show what the whole render shows (property)', () => {
    const words = ['alpha ', 'beta ', 'gamma, ', 'delta. ', '*em* ', '`code` ', '\n', '\n\n', 'x'.repeat(300), ' ', 'https://example.com ', '1. ', '- '];
    let seed = 11;
    const rnd = (n: number): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed % n);
    for (let run = 0; run < 20; run++) {
      const parts = Array.from({ length: 3000 }, () => (rnd(40) === 0 ? words[4 + rnd(words.length - 4)] : words[rnd(4)]));
      const sink = new AppendingSink();
      const stream = new StreamingMarkdown(sink);
      for (const p of parts) stream.append(p);
      same(sink.joined, renderMarkdown(parts.join('')), `run ${run}`);
    }
  });
});
