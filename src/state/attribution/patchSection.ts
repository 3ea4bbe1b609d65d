// The section of a (multi-file) unified or git patch that concerns one file, for the work index
// (src/state/attribution/patchTexts.ts reads the sections). The patch is read once, line by line,
// and its files are looked up by the last part of their names. Pure: no node, no vscode.
import { MAX_TEXT_CHARS } from './sessionWork';

/** The longest section of a patch kept for one change: as much as its two texts may be. */
export const MAX_PATCH_CHARS = 2 * MAX_TEXT_CHARS;

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

interface Block {
  start: number;
  end: number;
  names: string[];
  binary: boolean;
  /** Where a binary block's header ends (its encoded data is not kept). */
  headerEnd?: number;
  sawOld: boolean;
  hunks: number;
}

/**
 * The part of a (multi-file) unified or git patch that concerns `path`, or undefined when the
 * patch does not name it or its part is over MAX_PATCH_CHARS. `path` may be absolute: it matches
 * a patch path relative to `root`, or any patch path it ends with (the longest wins). A binary
 * file's part stops after the line that says it is binary.
 */
export function patchSection(patchText: string, path: string, root?: string): string | undefined {
  const r = sectionOf(patchText, new PatchIndex(patchText), path, root);
  return r && 'text' in r ? r.text : undefined;
}

/**
 * Each file's section for the work index (the patch read once for all of them): `{patch}`,
 * `{textDropped}` when the section is over the cap; a file the patch does not name is left out.
 */
export function keptPatches(patchText: string, paths: readonly string[]): Map<string, { patch?: string; textDropped?: true }> {
  const out = new Map<string, { patch?: string; textDropped?: true }>();
  if (!paths.length) return out;
  const index = new PatchIndex(patchText);
  for (const p of paths) {
    const r = sectionOf(patchText, index, p);
    if (r) out.set(p, 'text' in r ? { patch: r.text } : { textDropped: true });
  }
  return out;
}

function sectionOf(patchText: string, index: PatchIndex, path: string, root?: string): { text: string } | { over: true } | undefined {
  const best = index.find(path, root);
  if (!best) return undefined;
  const end = best.binary && best.headerEnd !== undefined ? best.headerEnd : best.end;
  if (end - best.start > MAX_PATCH_CHARS) return { over: true };
  // Joined anew, so the kept section does not hold on to the whole patch's text.
  return { text: patchText.slice(best.start, end).split('\n').join('\n') };
}

/** Where a line may start a header: hunk, diff, Index, ---, +++, rename, copy, GIT binary, Binary files. */
const HEADER_START = new Set(['@', 'd', 'I', '-', '+', 'r', 'c', 'G', 'B']);

/** The files of a patch, by the last part of their names. */
class PatchIndex {
  private readonly byBase = new Map<string, { block: Block; name: string }[]>();

  constructor(text: string) {
    for (const block of blocks(text)) {
      for (const name of block.names) {
        if (name === '/dev/null') continue;
        for (const raw of name === stripPrefix(name) ? [name] : [name, stripPrefix(name)]) {
          const c = (raw.includes('\\') ? raw.replace(/\\/g, '/') : raw).replace(/^(\.\/)+/, '');
          if (!c) continue;
          const base = c.slice(c.lastIndexOf('/') + 1);
          let list = this.byBase.get(base);
          if (!list) this.byBase.set(base, (list = []));
          list.push({ block, name: c });
        }
      }
    }
  }

  find(path: string, root?: string): Block | undefined {
    const norm = path.replace(/\\/g, '/');
    const base = root?.replace(/\\/g, '/').replace(/\/+$/, '');
    const rel = base !== undefined && norm.startsWith(`${base}/`) ? norm.slice(base.length + 1) : undefined;
    let best: Block | undefined;
    let bestScore = 0;
    for (const { block, name: c } of this.byBase.get(norm.slice(norm.lastIndexOf('/') + 1)) ?? []) {
      let score = 0;
      if (c === rel || c === norm) score = 1e9 + c.length;
      else if (norm.endsWith(`/${c}`)) score = c.length;
      else if (c.endsWith(`/${norm}`)) score = norm.length;
      if (score > bestScore) {
        best = block;
        bestScore = score;
      }
    }
    return best;
  }
}

/** Where a scan of a patch is: the blocks so far, the open one, and the lines its hunk still owes. */
interface Scan {
  readonly text: string;
  readonly out: Block[];
  b: Block | undefined;
  oldLeft: number;
  newLeft: number;
}

function blocks(text: string): Block[] {
  const s: Scan = { text, out: [], b: undefined, oldLeft: 0, newLeft: 0 };
  for (let at = 0; at < text.length;) {
    const nl = text.indexOf('\n', at);
    const next = nl < 0 ? text.length : nl + 1;
    if ((s.oldLeft > 0 || s.newLeft > 0) && hunkBody(s, at)) {
      at = next;
      continue;
    }
    if (HEADER_START.has(text[at]!)) {
      let line = text.slice(at, nl < 0 ? text.length : nl);
      if (line.endsWith('\r')) line = line.slice(0, -1);
      header(s, line, at, next);
    }
    at = next;
  }
  return s.out;
}

/** Closes the open block at `start` and opens the next one there. */
function open(s: Scan, start: number): Block {
  if (s.b) s.b.end = start;
  const b: Block = { start, end: s.text.length, names: [], binary: false, sawOld: false, hunks: 0 };
  s.b = b;
  s.out.push(b);
  return b;
}

/** A line of a hunk's body, read by its counts (a removed line may look like a header): true when it was one. */
function hunkBody(s: Scan, at: number): boolean {
  const first = s.text[at]!;
  const empty = first === '\n' || (first === '\r' && s.text[at + 1] === '\n');
  if (first === ' ' || empty) {
    s.oldLeft--;
    s.newLeft--;
  } else if (first === '-') s.oldLeft--;
  else if (first === '+') s.newLeft--;
  else if (first !== '\\') s.oldLeft = s.newLeft = 0; // a short hunk: this line is a header again
  return s.oldLeft > 0 || s.newLeft > 0 || first === ' ' || empty || first === '-' || first === '+' || first === '\\';
}

/** A header line: a hunk's counts, a new block, or a name or the binary mark of the open one. */
function header(s: Scan, line: string, at: number, next: number): void {
  const h = HUNK.exec(line);
  if (h) {
    const blk: Block = s.b ?? open(s, at);
    blk.hunks++;
    s.oldLeft = h[2] === undefined ? 1 : +h[2];
    s.newLeft = h[4] === undefined ? 1 : +h[4];
  } else if (line.startsWith('diff ') || line.startsWith('Index: ')) {
    const blk = open(s, at);
    if (line.startsWith('diff --git ')) blk.names.push(...gitNames(line.slice(11)));
  } else if (line.startsWith('--- ') && s.text.startsWith('+++ ', next)) {
    const blk: Block = s.b && !s.b.sawOld && !s.b.hunks ? s.b : open(s, at);
    blk.sawOld = true;
    blk.names.push(headerName(line.slice(4)));
  } else if (line.startsWith('+++ ') && s.b) {
    s.b.names.push(headerName(line.slice(4)));
  } else if (/^(rename|copy) (from|to) /.test(line) && s.b) {
    s.b.names.push(unquote(line.slice(line.indexOf(' ', 7) + 1)));
  } else if (line === 'GIT binary patch' || /^Binary files .* differ$/.test(line)) {
    const m = /^Binary files (.+) and (.+) differ$/.exec(line);
    const blk: Block = s.b ?? open(s, at);
    if (m) blk.names.push(unquote(m[1]!), unquote(m[2]!));
    blk.binary = true;
    blk.headerEnd ??= next;
  }
}

/** The two paths of `diff --git a/x b/y` (an unquoted pair split where its halves agree). */
function gitNames(rest: string): string[] {
  if (rest.startsWith('"')) {
    const m = /^("(?:[^"\\]|\\.)*") (.+)$/.exec(rest);
    return m ? [unquote(m[1]!), unquote(m[2]!)] : [];
  }
  const q = rest.endsWith('"') ? /^(.+?) ("(?:[^"\\]|\\.)*")$/.exec(rest) : null;
  if (q) return [q[1]!, unquote(q[2]!)];
  if (rest.length % 2 === 1) {
    const mid = (rest.length - 1) / 2;
    const a = rest.slice(0, mid);
    const b = rest.slice(mid + 1);
    if (rest[mid] === ' ' && (a === b || stripPrefix(a) === stripPrefix(b))) return [a, b];
  }
  const i = rest.indexOf(' b/');
  return i > 0 ? [rest.slice(0, i), rest.slice(i + 1)] : [];
}

/** A `---`/`+++` path: quoted, or up to a tab (a date may follow). */
function headerName(s: string): string {
  return s.startsWith('"') ? unquote(s) : s.split('\t')[0]!.trimEnd();
}

const utf8 = new TextEncoder();

function unquote(s: string): string {
  const m = /^"((?:[^"\\]|\\.)*)"/.exec(s);
  if (!m) return s;
  const bytes: number[] = [];
  const raw = m[1]!;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c !== '\\') {
      for (const byte of utf8.encode(c)) bytes.push(byte);
      continue;
    }
    const n = raw[++i] ?? '';
    const oct = /^[0-7]{3}/.exec(raw.slice(i));
    if (oct) {
      bytes.push(parseInt(oct[0], 8));
      i += 2;
    } else bytes.push(({ n: 10, t: 9, r: 13, '"': 34, '\\': 92, a: 7, b: 8, f: 12, v: 11 } as Record<string, number>)[n] ?? n.charCodeAt(0));
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** Without git's one-letter side prefix (a/, b/, and the mnemonic i/ w/ c/ o/). */
function stripPrefix(p: string): string {
  return /^[abiwco]\//.test(p) ? p.slice(2) : p;
}
