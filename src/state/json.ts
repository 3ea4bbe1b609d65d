// JSON helpers for the stores: a key-order-independent serialization (to tell a real change from
// an identical re-send) and a deep copy for snapshots. Both walk with an explicit stack, never by
// recursion: a value nested a million deep (whatever let it in) is slow, never a stack overflow.

type Frame = { arr: readonly unknown[]; i: number } | { obj: Record<string, unknown>; keys: string[]; i: number };

/** Deeper than this, the helpers leave recursion for their explicit-stack form. */
const RECURSION_LIMIT = 512;
const TOO_DEEP = Symbol('too deep');

/** JSON text with object keys sorted; `undefined` members are left out, as JSON.stringify does. */
export function stableStringify(v: unknown): string {
  try {
    return stableRecursive(v, 0);
  } catch (err) {
    if (err !== TOO_DEEP) throw err;
    return stableIterative(v);
  }
}

/** The fast form for ordinary depths. */
function stableRecursive(v: unknown, depth: number): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (depth > RECURSION_LIMIT) throw TOO_DEEP;
  if (Array.isArray(v)) return '[' + v.map((x) => (x === undefined ? 'null' : stableRecursive(x, depth + 1))).join(',') + ']';
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort();
  return '{' + keys.map((k) => JSON.stringify(k) + ':' + stableRecursive(o[k], depth + 1)).join(',') + '}';
}

function stableIterative(v: unknown): string {
  const out: string[] = [];
  const stack: Frame[] = [];
  let next: unknown = v;
  let pending = true;
  for (;;) {
    if (pending) {
      pending = false;
      if (next === null || typeof next !== 'object') {
        out.push(JSON.stringify(next) ?? 'null');
      } else if (Array.isArray(next)) {
        out.push('[');
        stack.push({ arr: next, i: 0 });
      } else {
        const o = next as Record<string, unknown>;
        out.push('{');
        stack.push({
          obj: o,
          keys: Object.keys(o)
            .filter((k) => o[k] !== undefined)
            .sort(),
          i: 0,
        });
      }
    }
    const top = stack[stack.length - 1];
    if (!top) return out.join('');
    if ('arr' in top) {
      if (top.i < top.arr.length) {
        if (top.i > 0) out.push(',');
        const x = top.arr[top.i++];
        next = x === undefined ? null : x;
        pending = true;
      } else {
        out.push(']');
        stack.pop();
      }
    } else if (top.i < top.keys.length) {
      const k = top.keys[top.i++] as string;
      out.push(`${top.i > 1 ? ',' : ''}${JSON.stringify(k)}:`);
      next = top.obj[k];
      pending = true;
    } else {
      out.push('}');
      stack.pop();
    }
  }
}

export function sameJson(a: unknown, b: unknown): boolean {
  return stableStringify(a) === stableStringify(b);
}

/** A plain, JSON-able deep copy (what `JSON.parse(JSON.stringify(v))` makes, at any depth). */
export function jsonClone<T>(v: T): T {
  if (v === undefined) return v;
  try {
    return JSON.parse(JSON.stringify(v)) as T;
  } catch (err) {
    if (!(err instanceof RangeError)) throw err; // BigInt, cycles: JSON's own errors
    return deepJsonClone(v) as T; // nested deeper than the engine's recursion
  }
}

/** JSON.stringify's view of one value: after toJSON; undefined when JSON leaves it out. */
function jsonView(v: unknown, key: string): unknown {
  let x = v;
  if (x !== null && typeof x === 'object' && typeof (x as { toJSON?: unknown }).toJSON === 'function') {
    x = (x as { toJSON(k: string): unknown }).toJSON(key);
  }
  if (x instanceof Number || x instanceof String || x instanceof Boolean) x = x.valueOf();
  if (typeof x === 'number') return Number.isFinite(x) ? (x === 0 ? 0 : x) : null; // -0 reads back as 0
  if (typeof x === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
  if (x === undefined || typeof x === 'function' || typeof x === 'symbol') return undefined;
  return x;
}

/** The JSON round trip without recursion (and without the text); jsonClone uses it past the engine's depth. */
export function deepJsonClone(root: unknown): unknown {
  const box: { value: unknown } = { value: undefined };
  type Work = { src: unknown; put: (copy: unknown) => void } | { leave: object };
  const work: Work[] = [
    {
      src: jsonView(root, ''),
      put: (c) => {
        box.value = c;
      },
    },
  ];
  const ancestors = new Set<object>();
  while (work.length) {
    const item = work.pop() as Work;
    if ('leave' in item) {
      ancestors.delete(item.leave);
      continue;
    }
    const { src, put } = item;
    if (src === null || typeof src !== 'object') {
      put(src);
      continue;
    }
    if (ancestors.has(src)) throw new TypeError('Converting circular structure to JSON');
    ancestors.add(src);
    work.push({ leave: src }); // popped after every part of `src`
    if (Array.isArray(src)) {
      const arr = new Array<unknown>(src.length).fill(null);
      put(arr);
      src.forEach((x, i) => {
        const view = jsonView(x, String(i));
        work.push({
          src: view === undefined ? null : view,
          put: (c) => {
            arr[i] = c;
          },
        });
      });
    } else {
      const obj: Record<string, unknown> = {};
      put(obj);
      for (const k of Object.keys(src)) {
        const view = jsonView((src as Record<string, unknown>)[k], k);
        if (view === undefined) continue;
        setKey(obj, k, null); // keeps JSON's key order
        work.push({
          src: view,
          put: (c) => {
            setKey(obj, k, c);
          },
        });
      }
    }
  }
  return box.value;
}

/** `__proto__` is an ordinary key in JSON: define it, never assign it. */
function setKey(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}
