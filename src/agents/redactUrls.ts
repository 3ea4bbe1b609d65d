// Redaction of URLs in a word (part of redactText.ts's pass): in every `scheme://…`, the user
// info, every query value, and path segments or a fragment that look like keys are masked; the
// scheme, host and names stay readable. Also the whitespace test the words are split on. No `vscode`.
import { MASK, looksLikeKey } from './secretShapes';

/** Whitespace between words (space, tab, line breaks, vertical tab, form feed). */
export function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0b || c === 0x0c;
}

/** Every `scheme://…` in the word redacted (user info, query values, key-shaped segments). */
export function redactUrls(w: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const sep = w.indexOf('://', from);
    if (sep === -1) return out + w.slice(from);
    let start = sep;
    while (start > from && isSchemeChar(w.charCodeAt(start - 1))) start--;
    let end = sep + 3;
    while (end < w.length && !isUrlEnd(w.charCodeAt(end))) end++;
    out += w.slice(from, start) + (start === sep ? w.slice(sep, end) : redactUrl(w.slice(start, end)));
    from = end;
  }
}

function isSchemeChar(c: number): boolean {
  return isAlnum(c) || c === 0x2b || c === 0x2d || c === 0x2e;
}

function isAlnum(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

function isUrlEnd(c: number): boolean {
  return c === 0x22 || c === 0x27 || c === 0x60 || c === 0x3c || c === 0x3e || c === 0x29 || isSpace(c);
}

/** One URL: `scheme://[userinfo@]host[/path][?query][#fragment]`. */
function redactUrl(u: string): string {
  const sep = u.indexOf('://') + 3;
  let authEnd = sep;
  while (authEnd < u.length && u[authEnd] !== '/' && u[authEnd] !== '?' && u[authEnd] !== '#') authEnd++;
  let authority = u.slice(sep, authEnd);
  const at = authority.lastIndexOf('@');
  if (at !== -1) authority = `${MASK}${authority.slice(at)}`;
  let q = u.indexOf('?', authEnd);
  let h = u.indexOf('#', authEnd);
  if (h === -1) h = u.length;
  if (q === -1 || q > h) q = h;
  const path = u
    .slice(authEnd, q)
    .split('/')
    .map((seg) => (looksLikeKey(seg) ? MASK : seg))
    .join('/');
  const query = q < h ? `?${maskQuery(u.slice(q + 1, h))}` : '';
  const frag = h < u.length ? `#${fragment(u.slice(h + 1))}` : '';
  return `${u.slice(0, sep)}${authority}${path}${query}${frag}`;
}

function maskQuery(q: string): string {
  return q
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return looksLikeKey(pair) ? MASK : pair;
      return eq === pair.length - 1 ? pair : `${pair.slice(0, eq + 1)}${MASK}`;
    })
    .join('&');
}

function fragment(f: string): string {
  if (f.includes('=')) return maskQuery(f);
  return looksLikeKey(f) ? MASK : f;
}
