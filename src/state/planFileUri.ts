// Which file-plan URIs we open: absolute `file:` URIs without a remote host. Anything else is
// refused with a reason the user can read.

export type PlanFileUriCheck = { ok: true; uri: string } | { ok: false; reason: string };

export function checkPlanFileUri(uri: string): PlanFileUriCheck {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(uri)?.[1]?.toLowerCase();
  if (!scheme) return { ok: false, reason: 'not an absolute URI' };
  if (scheme !== 'file') return { ok: false, reason: `only file: URIs are opened, not ${truncateScheme(scheme)}:` };
  if (!/^file:\/\/[^/?#]*\//i.test(uri)) return { ok: false, reason: 'not an absolute file URI' };
  let url: URL;
  try { url = new URL(uri); } catch { return { ok: false, reason: 'not a valid URI' }; }
  if (url.hostname && url.hostname.toLowerCase() !== 'localhost') return { ok: false, reason: `file URIs on another host (${url.hostname}) are not opened` };
  try { decodeURIComponent(url.pathname); } catch { return { ok: false, reason: 'not a valid URI' }; }
  return { ok: true, uri };
}

function truncateScheme(s: string): string { return s.length > 20 ? s.slice(0, 19) + '…' : s; }
