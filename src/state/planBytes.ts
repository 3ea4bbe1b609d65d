// Sizes of plan content in bytes, for the plan store's caps. Linear, no recursion (a payload
// nested a million deep is walked with an explicit stack), and no serialization.

/** UTF-8 length of a string (a lone surrogate counts as the 3 bytes of its replacement). */
export function utf8Length(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/**
 * About as many bytes as the JSON text of `v` would take (strings and keys by their UTF-8 length
 * plus quotes, 8 per number, punctuation counted); stops counting past `stopAt`.
 */
export function jsonBytes(v: unknown, stopAt = Infinity): number {
  // A string or a flat object (a plan entry) needs no stack.
  if (typeof v === 'string') return v.length > stopAt ? stopAt + 1 : utf8Length(v) + 2;
  if (typeof v === 'number' || typeof v === 'boolean' || v === null || v === undefined) return 8;
  const flat = typeof v === 'object' ? flatBytes(v, stopAt) : -1;
  if (flat >= 0) return flat;
  let n = 0;
  const stack: unknown[] = [v];
  while (stack.length && n <= stopAt) {
    const x = stack.pop();
    if (typeof x === 'string') n += x.length > stopAt ? stopAt + 1 : utf8Length(x) + 2;
    else if (typeof x === 'number' || typeof x === 'boolean' || x === null || x === undefined) n += 8;
    else if (Array.isArray(x)) {
      n += 2 + x.length;
      for (const y of x) stack.push(y);
    } else if (typeof x === 'object') {
      // Own enumerable string keys, as Object.entries, without its array of pairs per object.
      const o = x as Record<string, unknown>;
      for (const k in o) {
        if (!Object.prototype.hasOwnProperty.call(o, k)) continue;
        n += utf8Length(k) + 4;
        stack.push(o[k]);
      }
      n += 2;
    }
  }
  return n;
}

/** `jsonBytes` of an object whose members are all strings (none longer than `stopAt`), numbers, booleans or null; -1 for any other. */
function flatBytes(o: object, stopAt: number): number {
  if (Array.isArray(o)) return -1;
  let n = 2;
  const r = o as Record<string, unknown>;
  for (const k in r) {
    if (!Object.prototype.hasOwnProperty.call(r, k)) continue;
    const x = r[k];
    if (typeof x === 'string') {
      if (x.length > stopAt) return -1;
      n += utf8Length(x) + 2;
    } else if (typeof x === 'number' || typeof x === 'boolean' || x === null || x === undefined) n += 8;
    else return -1;
    n += utf8Length(k) + 4;
  }
  return n;
}

/** A stored plan's size, with the sizes of the elements of its array members (by member name). */
export interface StoredPlanBytes {
  readonly bytes: number;
  readonly parts: ReadonlyMap<string, readonly number[]>;
}

/**
 * `jsonBytes` of a plan as the plan store keeps it, where a revision shares the unchanged
 * elements of its arrays (entries, steps) with the previous one (`prev`): an element that is the
 * previous revision's own at the same place is not measured again, so an update costs the entries
 * it changed, not the whole plan. Only for values that are never mutated afterwards. Stops
 * counting past `stopAt` (the sizes are then partial).
 */
export function storedPlanBytes(plan: object, stopAt = Infinity, prev?: { plan: object; parts: ReadonlyMap<string, readonly number[]> }): StoredPlanBytes {
  let n = 2;
  const parts = new Map<string, number[]>();
  const o = plan as Record<string, unknown>;
  const before = prev?.plan as Record<string, unknown> | undefined;
  for (const k in o) {
    if (!Object.prototype.hasOwnProperty.call(o, k)) continue;
    const x = o[k];
    n += utf8Length(k) + 4;
    if (Array.isArray(x)) {
      n += 2 + x.length;
      const old = before?.[k];
      const oldArr = Array.isArray(old) ? old : undefined;
      const oldSizes = oldArr && prev!.parts.get(k);
      const sizes: number[] = new Array<number>(x.length);
      parts.set(k, sizes);
      for (let i = 0; i < x.length; i++) {
        const y: unknown = x[i];
        const known = oldSizes !== undefined && oldArr![i] === y ? oldSizes[i] : undefined;
        const size = known ?? jsonBytes(y, stopAt);
        sizes[i] = size;
        n += size;
        if (n > stopAt) return { bytes: n, parts };
      }
    } else {
      n += jsonBytes(x, stopAt);
    }
    if (n > stopAt) return { bytes: n, parts };
  }
  return { bytes: n, parts };
}

/**
 * The head of `s` that fits in `maxBytes` of UTF-8, ending at a line break when one lies in the
 * last quarter of the head (so a Markdown plan keeps whole lines). The head is a copy of its own
 * (see `detachedCopy`): a cut 10 MB plan keeps 1 MiB alive, not 10 MB.
 */
export function headUtf8(s: string, maxBytes: number): string {
  let n = 0;
  let i = 0;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    const w = c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;
    if (n + w > maxBytes) break;
    n += w;
    if (pair) i++;
  }
  const nl = s.lastIndexOf('\n', i - 1);
  return detachedCopy(nl >= 0 && nl >= (i * 3) / 4 ? s.slice(0, nl + 1) : s.slice(0, i));
}

/**
 * A copy of `s` that shares no memory with the string it was cut from. V8 represents a slice of a
 * long string as a view into it, so a kept 1 MiB head of a 64 MB line would keep all 64 MB alive
 * and every byte cap would count a tenth of what is held. UTF-16 round trip: exact, lone
 * surrogates included.
 */
export function detachedCopy(s: string): string {
  return Buffer.from(s, 'utf16le').toString('utf16le');
}

/** "1.5 MiB", "300 KiB", "12 bytes". */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${Math.round((n / (1024 * 1024)) * 10) / 10} MiB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KiB`;
  return `${n} bytes`;
}
