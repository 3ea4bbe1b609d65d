// Redaction for logs and traces: environment values and anything that looks like a credential
// never reach an output channel. Structure first (env and header lists, secret-named fields,
// argument lists), then every string through redactText (flags, headers, URLs, key shapes).
import { redactArgList, redactText } from './redactText';
import { MASK, isSecretField } from './secretShapes';

export { redactText };
export { addKnownSecret } from './secretShapes';

/** Deeper than this, a value is replaced, never shown unredacted (the wire allows 128 levels). */
export const MAX_REDACT_DEPTH = 160;
const TOO_DEEP = '[nested too deep]';

export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_REDACT_DEPTH) return TOO_DEEP;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    let r: unknown;
    if (k === 'env' || k === 'headers') r = redactPairs(v);
    else if (isSecretField(k) && v !== null && v !== undefined && !(typeof v === 'number' && /tokens/i.test(k))) r = MASK;
    else if (k === 'args' && Array.isArray(v)) r = redactArgs(v, depth + 1);
    else r = redact(v, depth + 1);
    if (k === '__proto__') Object.defineProperty(out, k, { value: r, enumerable: true, writable: true, configurable: true });
    else out[k] = r;
  }
  return out;
}

/** A command's arguments: `--token X`, `-H "Authorization: …"` across arguments. */
function redactArgs(args: unknown[], depth: number): unknown[] {
  if (!args.every((a) => typeof a === 'string')) return args.map((a) => redact(a, depth));
  return redactArgList(args as string[]);
}

/** `env`/`headers`: a `{name, value}[]` list (ACP) or a `{NAME: value}` map (v1 auth methods). */
function redactPairs(v: unknown): unknown {
  if (Array.isArray(v)) return v.map((p) => (p && typeof p === 'object' ? { ...(p as object), value: MASK } : MASK));
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).map((k) => [k, MASK]));
  return v === undefined ? v : MASK;
}
