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
    else if (k === 'args' && Array.isArray(v)) out[k] = redactArgs(v);
    else if (typeof v === 'string') out[k] = redactUrl(v);
    else out[k] = redact(v, depth + 1);
  }
  return out;
}

/** `--token X`, `--api-key=X` and the like in a command line: the value is hidden. */
function redactArgs(args: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (typeof a !== 'string') { out.push(redact(a, 1)); continue; }
    const eq = /^(--?[\w-]+)=/.exec(a);
    if (eq && SECRET_KEY.test(eq[1]!)) { out.push(`${eq[1]}=***`); continue; }
    out.push(redactUrl(a));
    if (/^--?[\w-]+$/.test(a) && SECRET_KEY.test(a) && i + 1 < args.length) { out.push('***'); i++; }
  }
  return out;
}

/** Query values and user info of an http(s) URL are hidden (they often carry keys). */
function redactUrl(s: string): string {
  if (!/^https?:\/\//i.test(s)) return s;
  try {
    const u = new URL(s);
    if (u.username || u.password) { u.username = '***'; u.password = ''; }
    for (const k of [...u.searchParams.keys()]) u.searchParams.set(k, '***');
    return u.toString();
  } catch { return s; }
}

/** `env`/`headers`: a `{name, value}[]` list (ACP) or a `{NAME: value}` map (v1 auth methods). */
function redactPairs(v: unknown): unknown {
  if (Array.isArray(v)) return v.map((p) => (p && typeof p === 'object' ? { ...(p as object), value: '***' } : '***'));
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).map((k) => [k, '***']));
  return v === undefined ? v : '***';
}
