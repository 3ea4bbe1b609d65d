// Where a link from an agent really goes, decided in one place without `vscode`. VS Code opens a
// link with `vscode.Uri.parse` (scheme, then `//authority` up to the first `/`, `?` or `#`, with
// percent-escapes decoded and user info cut at the last `@` when printed), while a reader and
// Node's WHATWG `URL` may split the same text differently (a backslash ends the host for one and not
// the other; `%40` becomes `@`). So a link is accepted only when both parsers must agree: an
// absolute `https://host[:port]/…` (plain `http` only to localhost, 127.0.0.1 or [::1]) with no user
// info, no backslash, no percent-escape in the host, no control, space, bidi or zero-width
// character anywhere, a host of letters, digits, dots and hyphens (or an IPv6 literal) that WHATWG
// reads the same. Everything else is refused with the reason, in words for the user; a refused link
// is never opened. The host shown is the one both parsers yield (lower case, port only when not the
// default).

import { english, type L10n } from './l10n';

export type LinkCheck = { ok: true; host: string; url: string } | { ok: false; reason: string };

/** The note shown for a refused link (card or notification). */
export const refusedLinkNote = (reason: string, l10n: L10n = english): string => l10n.t("The agent's link was not opened: {0}.", reason);

/** Why a link is refused, in `l10n`'s words. */
const reasons = (l10n: L10n) => ({
  hidden: l10n.t('it hides its real destination (user name or backslash in the address)'),
  control: l10n.t('it hides its real destination (control or space characters in the address)'),
  notWeb: l10n.t('it is not a complete web address (https://host/…)'),
  notHttps: l10n.t('it is not an https address; only https links (and http to this machine) are opened'),
  oddHost: l10n.t('it hides its real destination (the host is not a plain name or address)'),
});
export const HIDDEN_DESTINATION = reasons(english).hidden;

/** C0/C1 controls, every Unicode space, bidi controls, zero-width characters, BOM. */
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u0020\u007f-\u00a0\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff]/;
const SHAPE = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)(.*)$/s;
const HOST_PORT = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const DEFAULT_PORT: Record<string, string> = { https: '443', http: '80' };

/** Whether `raw` may be shown and opened, and then the host to show and the URL to open. */
export function checkLink(raw: string, l10n: L10n = english): LinkCheck {
  const { hidden: HIDDEN, control: CONTROL, notWeb: NOT_WEB, notHttps: NOT_HTTPS, oddHost: ODD_HOST } = reasons(l10n);
  if (INVISIBLE.test(raw)) return { ok: false, reason: CONTROL };
  if (raw.includes('\\')) return { ok: false, reason: HIDDEN };
  const m = SHAPE.exec(raw);
  if (!m) {
    const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(raw)?.[1]?.toLowerCase();
    return { ok: false, reason: scheme && scheme !== 'https' && scheme !== 'http' ? NOT_HTTPS : NOT_WEB };
  }
  const scheme = m[1]!.toLowerCase();
  const authority = m[2]!;
  if (scheme !== 'https' && scheme !== 'http') return { ok: false, reason: NOT_HTTPS };
  if (authority.includes('@') || authority.includes('%')) return { ok: false, reason: HIDDEN };
  if (!authority) return { ok: false, reason: NOT_WEB };
  const hp = HOST_PORT.exec(authority);
  if (!hp) return { ok: false, reason: ODD_HOST };
  const name = hp[1]!.toLowerCase();
  const port = hp[2];
  if (port !== undefined && Number(port) > 65535) return { ok: false, reason: ODD_HOST };
  const host = port !== undefined && port !== DEFAULT_PORT[scheme] ? `${name}:${port}` : name;
  // Node's WHATWG parser must read the same host (it rewrites numeric and shortened addresses).
  let whatwg: URL;
  try {
    whatwg = new URL(raw);
  } catch {
    return { ok: false, reason: ODD_HOST };
  }
  if (whatwg.host !== host || whatwg.username || whatwg.password) return { ok: false, reason: ODD_HOST };
  if (scheme === 'http' && !LOOPBACK.has(name)) return { ok: false, reason: NOT_HTTPS };
  return { ok: true, host, url: scheme + raw.slice(scheme.length) };
}

/** The host a link really goes to (the one VS Code opens), or a refusal. */
export function hostOf(url: string, l10n: L10n = english): string {
  const c = checkLink(url, l10n);
  return c.ok ? c.host : l10n.t('a refused address');
}
