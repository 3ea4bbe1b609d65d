// JSON helpers for the stores: a key-order-independent serialization (to tell a real change from
// an identical re-send) and a deep copy for snapshots.

/** JSON text with object keys sorted; `undefined` members are left out, as JSON.stringify does. */
export function stableStringify(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return '[' + v.map((x) => (x === undefined ? 'null' : stableStringify(x))).join(',') + ']';
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o).filter((k) => o[k] !== undefined).sort();
  return '{' + keys.map((k) => JSON.stringify(k) + ':' + stableStringify(o[k])).join(',') + '}';
}

export function sameJson(a: unknown, b: unknown): boolean { return stableStringify(a) === stableStringify(b); }

/** A plain, JSON-able deep copy. */
export function jsonClone<T>(v: T): T { return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T); }
