// JSON previews of untrusted values (a tool call's rawInput/rawOutput, unknown updates and
// content): formatted like `JSON.stringify(value, null, 2)`, but with bounded work and stack.
// Nesting deeper than `maxDepth` shows as `{…}`/`[…]` (a value nested a million levels deep
// cannot overflow the stack), and writing stops once `max` characters are out (a 64 MB value
// costs about `max` characters of work, not a full serialization). The note of a cut preview is in
// `l10n`'s words (the view model's).
import { english, type L10n } from '../../common/l10n';

export const JSON_PREVIEW_CHARS = 4000;
export const JSON_PREVIEW_DEPTH = 32;

export function jsonPreview(value: unknown, max = JSON_PREVIEW_CHARS, maxDepth = JSON_PREVIEW_DEPTH, l10n: L10n = english): string {
  const w = new BoundedWriter(max);
  writeValue(w, value, 0, '', maxDepth);
  return w.full ? l10n.t('{0}\n… (more not shown)', w.text().slice(0, max)) : w.text();
}

class BoundedWriter {
  private readonly parts: string[] = [];
  private length = 0;
  full = false;
  constructor(readonly max: number) {}
  put(s: string): void {
    if (this.full) return;
    this.parts.push(s);
    this.length += s.length;
    if (this.length > this.max) this.full = true;
  }
  text(): string {
    return this.parts.join('');
  }
}

function writeValue(w: BoundedWriter, v: unknown, depth: number, indent: string, maxDepth: number): void {
  if (w.full) return;
  switch (typeof v) {
    // A string longer than the whole preview is cut before it is escaped.
    case 'string':
      return w.put(JSON.stringify(v.length > w.max ? v.slice(0, w.max + 1) : v));
    case 'number':
      return w.put(Number.isFinite(v) ? String(v) : 'null');
    case 'boolean':
    case 'bigint':
      return w.put(String(v));
    case 'undefined':
    case 'function':
    case 'symbol':
      return w.put('null');
    case 'object':
      break;
  }
  if (v === null) return w.put('null');
  if (depth >= maxDepth) return w.put(Array.isArray(v) ? '[…]' : '{…}');
  const inner = `${indent}  `;
  if (Array.isArray(v)) {
    if (v.length === 0) return w.put('[]');
    w.put('[');
    for (let i = 0; i < v.length && !w.full; i++) {
      w.put(i === 0 ? `\n${inner}` : `,\n${inner}`);
      writeValue(w, v[i], depth + 1, inner, maxDepth);
    }
    return w.put(`\n${indent}]`);
  }
  const o = v as Record<string, unknown>;
  let first = true;
  for (const k in o) {
    if (w.full) return;
    const x = o[k];
    if (!Object.prototype.hasOwnProperty.call(o, k) || x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
    w.put(first ? `{\n${inner}` : `,\n${inner}`);
    first = false;
    w.put(`${JSON.stringify(k)}: `);
    writeValue(w, x, depth + 1, inner, maxDepth);
  }
  w.put(first ? '{}' : `\n${indent}}`);
}
