// Nesting depth of a JSON line, measured on its bytes before it is parsed. A line nested deeper
// than the limit is never parsed: parsing `[[[[…` a million deep costs a million objects, and every
// recursive walk after it (validation, cloning, tracing, JSON.stringify) would overflow the stack.
// Both scans are linear, allocate nothing per byte, and skip string contents with `indexOf`
// (bytes of multi-byte UTF-8 characters are all ≥ 0x80, so no quote or bracket hides in them).

/** Deepest nesting the agent may send: messages nested deeper are refused (serde_json's default). */
export const MAX_JSON_DEPTH = 128;
/** An id longer than this (in bytes) is not echoed back in an error answer. */
const MAX_ECHOED_ID_BYTES = 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

/**
 * The deepest nesting of `[`/`{` in `bytes[start, end)`; the scan stops as soon as it passes
 * `limit` (then the result is `limit + 1`). Malformed JSON gets some number; JSON.parse judges it.
 */
export function nestingDepth(bytes: Buffer, start: number, end: number, limit: number): number {
  let depth = 0;
  let max = 0;
  let i = start;
  while (i < end) {
    const b = bytes[i];
    if (b === QUOTE) {
      i = stringEnd(bytes, i + 1, end);
      continue;
    }
    if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
      if (++depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
      depth--;
    }
    i++;
  }
  return max;
}

/**
 * Whether `bytes[start, end)` holds more than `limit` opening brackets (in strings or not): when
 * it does not, its nesting cannot exceed `limit` and `nestingDepth` need not run. A few native
 * `indexOf` calls; most messages stop here.
 */
export function moreBracketsThan(bytes: Buffer, start: number, end: number, limit: number): boolean {
  let n = 0;
  for (const b of [OPEN_OBJECT, OPEN_ARRAY]) {
    let i = bytes.indexOf(b, start);
    while (i !== -1 && i < end) {
      if (++n > limit) return true;
      i = bytes.indexOf(b, i + 1);
    }
  }
  return false;
}

/** What the top level of a message tells without parsing it. */
export interface MessageOutline {
  /** The message has a `method` member. */
  hasMethod: boolean;
  /** Its `id`: absent (undefined), a usable id, or null when the id is unusable (null, object…). */
  id?: string | number | null;
}

/**
 * The messages of a line that will not be parsed (the line itself when it is an object, each
 * object of a top-level array otherwise), with their `method` presence and `id`. Linear in the line.
 */
export function outlineMessages(bytes: Buffer, start: number, end: number): MessageOutline[] {
  const level = bytes[start] === OPEN_ARRAY ? 2 : 1;
  const out: MessageOutline[] = [];
  let current: MessageOutline | undefined;
  let depth = 0;
  let expectKey = false;
  let key: string | undefined;
  let i = start;
  while (i < end) {
    const b = bytes[i];
    if (b === QUOTE) {
      const close = stringEnd(bytes, i + 1, end);
      if (current && depth === level) {
        if (expectKey) {
          key = close - i <= 16 ? smallString(bytes, i, close) : '';
          expectKey = false;
        } else if (key !== undefined) {
          if (key === 'method') current.hasMethod = true;
          if (key === 'id') current.id = close - i <= MAX_ECHOED_ID_BYTES ? (smallString(bytes, i, close) ?? null) : null;
          key = undefined;
        }
      }
      i = close;
      continue;
    }
    if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
      depth++;
      if (depth === level && b === OPEN_OBJECT) {
        current = { hasMethod: false };
        out.push(current);
        expectKey = true;
        key = undefined;
      } else if (current && depth === level + 1 && key !== undefined) {
        if (key === 'method') current.hasMethod = true;
        if (key === 'id') current.id = null; // an object or array id
        key = undefined;
      }
    } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
      if (depth === level) current = undefined;
      depth--;
    } else if (current && depth === level) {
      if (b === COMMA) {
        expectKey = true;
        key = undefined;
      } else if (key !== undefined && b !== 0x3a /* : */ && !isSpace(b)) {
        let j = i;
        while (j < end && !isDelimiter(bytes[j])) j++;
        if (key === 'method') current.hasMethod = true;
        if (key === 'id') current.id = literalId(bytes.toString('latin1', i, Math.min(j, i + 64)));
        key = undefined;
        i = j;
        continue;
      }
    }
    i++;
  }
  return out;
}

/** Index just after the closing quote of a string whose contents start at `i` (or `end`). */
function stringEnd(bytes: Buffer, i: number, end: number): number {
  let from = i;
  for (;;) {
    const q = bytes.indexOf(QUOTE, from);
    if (q === -1 || q >= end) return end;
    let k = q - 1;
    let backslashes = 0;
    while (k >= from && bytes[k] === BACKSLASH) {
      backslashes++;
      k--;
    }
    if (backslashes % 2 === 0) return q + 1;
    from = q + 1;
  }
}

function smallString(bytes: Buffer, open: number, afterClose: number): string | undefined {
  try {
    const v: unknown = JSON.parse(bytes.toString('utf8', open, afterClose));
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

function literalId(text: string): number | null {
  const n = Number(text);
  return /^-?\d/.test(text) && Number.isFinite(n) ? n : null;
}

function isSpace(b: number | undefined): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0a;
}

function isDelimiter(b: number | undefined): boolean {
  return b === COMMA || b === CLOSE_OBJECT || b === CLOSE_ARRAY || isSpace(b);
}
