// Redaction for logs and traces: environment values and anything that looks like a credential
// never reach an output channel.
const SECRET_KEY = /(token|secret|password|passwd|api[-_]?key|authorization|cookie|credential|private)/i;

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 32 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (k === 'env' || k === 'headers') out[k] = redactPairs(v);
    else if (SECRET_KEY.test(k) && typeof v !== 'object') out[k] = '***';
    else out[k] = redact(v, depth + 1);
  }
  return out;
}

/** `env`/`headers`: a `{name, value}[]` list (ACP) or a `{NAME: value}` map (v1 auth methods). */
function redactPairs(v: unknown): unknown {
  if (Array.isArray(v)) return v.map((p) => (p && typeof p === 'object' ? { ...(p as object), value: '***' } : '***'));
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).map((k) => [k, '***']));
  return v === undefined ? v : '***';
}
