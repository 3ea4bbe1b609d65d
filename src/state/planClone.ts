// Copies of plan content for the plan store (see the note below); vscode-free, no I/O.
import { jsonClone } from './json';

// Plan updates arrive by the thousand per turn and most of a plan stays the same from one update
// to the next (an entry's status changes), so the store neither serializes plans nor copies what
// did not change: a new revision reuses the previous revision's unchanged parts (store-owned and
// never mutated). Both helpers follow JSON semantics exactly (what JSON.stringify keeps): object
// keys in any order, `undefined` members left out, `undefined`/non-finite numbers read as null.

/**
 * A private copy of `next` as `JSON.parse(JSON.stringify(next))` would make it, except that the
 * parts with the same JSON as the matching part of `prev` (a copy made here earlier) are `prev`'s
 * own; `prev` itself when all of `next` has the same JSON as `prev`.
 */
export function cloneReusing(next: unknown, prev: unknown): unknown {
  if (prev === undefined || typeof next !== 'object' || next === null || typeof prev !== 'object' || prev === null) {
    const copy = cloneValue(next);
    return copy === prev ? prev : copy;
  }
  // Compare first (no allocation): most parts of a re-sent plan are unchanged.
  if (sameJson(next, prev)) return prev;
  if (Array.isArray(next)) {
    if (!Array.isArray(prev)) return cloneValue(next);
    const out = new Array<unknown>(next.length);
    for (let i = 0; i < next.length; i++) {
      const x: unknown = next[i];
      out[i] = x === undefined || typeof x === 'function' || typeof x === 'symbol' ? null
        : i < prev.length ? cloneReusing(x, prev[i]) : cloneValue(x);
    }
    return out;
  }
  if (Array.isArray(prev) || !isPlainObject(next)) return cloneValue(next);
  const src = next as Record<string, unknown>;
  const old = prev as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(src)) {
    const x = src[k];
    if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
    const p = Object.prototype.hasOwnProperty.call(old, k) ? old[k] : undefined;
    setKey(out, k, p === undefined ? cloneValue(x) : cloneReusing(x, p));
  }
  return out;
}

/** Whether `next` has the same JSON as `prev`, a copy made by this module (key order ignored). */
function sameJson(next: unknown, prev: unknown): boolean {
  if (next === prev) return true;
  if (typeof next !== 'object' || next === null) {
    if (typeof next === 'number' && !Number.isFinite(next)) return prev === null;
    if (next === undefined || typeof next === 'function' || typeof next === 'symbol') return prev === null;
    return false;
  }
  if (typeof prev !== 'object' || prev === null) return false;
  if (Array.isArray(next)) {
    if (!Array.isArray(prev) || next.length !== prev.length) return false;
    for (let i = 0; i < next.length; i++) if (!sameJson(next[i], prev[i])) return false;
    return true;
  }
  if (Array.isArray(prev) || !isPlainObject(next)) return false;
  const src = next as Record<string, unknown>;
  const old = prev as Record<string, unknown>;
  let n = 0;
  for (const k in src) {
    if (!Object.prototype.hasOwnProperty.call(src, k)) continue;
    const x = src[k];
    if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
    if (!Object.prototype.hasOwnProperty.call(old, k) || !sameJson(x, old[k])) return false;
    n++;
  }
  for (const k in old) if (Object.prototype.hasOwnProperty.call(old, k)) n--;
  return n === 0;
}

/** The same copy as `JSON.parse(JSON.stringify(v))` for plain JSON data, without the text. */
function cloneValue(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) {
    if (typeof v === 'string' || typeof v === 'boolean' || v === null) return v;
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    return jsonClone(v); // the rare cases keep JSON's exact behaviour (and errors)
  }
  if (Array.isArray(v)) {
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      out[i] = x === undefined || typeof x === 'function' || typeof x === 'symbol' ? null : cloneValue(x);
    }
    return out;
  }
  if (!isPlainObject(v)) return jsonClone(v);
  const src = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(src)) {
    const x = src[k];
    if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
    setKey(out, k, cloneValue(x));
  }
  return out;
}

function isPlainObject(v: object): boolean {
  const proto: unknown = Object.getPrototypeOf(v);
  return (proto === Object.prototype || proto === null) && typeof (v as { toJSON?: unknown }).toJSON !== 'function';
}

/** `__proto__` is an ordinary key in JSON: define it, never assign it. */
function setKey(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}
