// Which file plans are read, decided without touching the disk (the reader, planFileRead.ts, then
// checks what the path really is). A file plan is the agent's URI, so it is untrusted:
//   - only absolute `file:` URIs without a remote host;
//   - never the kernel's and devices' trees (/proc, /sys, /dev): not even when the user asks;
//   - inside a workspace folder (after `..` is resolved); a file elsewhere is not read, but the
//     user may open it (`offerOpen`).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { english, type L10n } from '../common/l10n';

export type PlanFileUriCheck = { ok: true; uri: string } | { ok: false; reason: string };

export type PlanFileDecision =
  { readonly ok: true; readonly path: string } | { readonly ok: false; readonly reason: string; readonly offerOpen: boolean; readonly path?: string };

/** Trees that are never read as plans (their files are endless, block, or hold secrets). */
export const SYSTEM_TREES: readonly string[] = ['/proc', '/sys', '/dev'];

export function checkPlanFileUri(uri: string, l10n: L10n = english): PlanFileUriCheck {
  const scheme = schemeOf(uri);
  if (!scheme) return { ok: false, reason: l10n.t('not an absolute URI') };
  if (scheme !== 'file') return { ok: false, reason: l10n.t('only file: URIs are opened, not {0}:', truncateScheme(scheme)) };
  if (!/^file:\/\/[^/?#]*\//i.test(uri)) return { ok: false, reason: l10n.t('not an absolute file URI') };
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return { ok: false, reason: l10n.t('not a valid URI') };
  }
  if (url.hostname && url.hostname.toLowerCase() !== 'localhost')
    return { ok: false, reason: l10n.t('file URIs on another host ({0}) are not opened', url.hostname) };
  try {
    decodeURIComponent(url.pathname);
  } catch {
    return { ok: false, reason: l10n.t('not a valid URI') };
  }
  return { ok: true, uri };
}

/**
 * Whether the file plan at `uri` may be read, given the workspace folders (`roots`, absolute
 * paths; `anywhere` when the user asked to open it). `pathApi` is for tests of Windows' rules.
 */
export function decidePlanFile(uri: string, roots: readonly string[] | 'anywhere', pathApi: path.PlatformPath = path, l10n: L10n = english): PlanFileDecision {
  const check = checkPlanFileUri(uri, l10n);
  if (!check.ok) return { ok: false, reason: l10n.t('refused: {0}', check.reason), offerOpen: false };
  let p: string;
  try {
    p = pathApi.resolve(fileURLToPath(uri, { windows: pathApi === path.win32 }));
  } catch {
    return { ok: false, reason: l10n.t('refused: not a valid file URI'), offerOpen: false };
  }
  if (isSystemPath(p, pathApi)) return { ok: false, reason: l10n.t('refused: {0} is a system file, never read as a plan', p), offerOpen: false, path: p };
  if (roots !== 'anywhere' && !roots.some((r) => isInside(p, r, pathApi))) {
    return {
      ok: false,
      reason: roots.length
        ? l10n.t('not read: {0} is outside the workspace folders', p)
        : l10n.t('not read: no folder is open, so {0} is outside the workspace', p),
      offerOpen: true,
      path: p,
    };
  }
  return { ok: true, path: p };
}

/** `p` is `root` or below it (both absolute; no symlinks resolved here). */
export function isInside(p: string, root: string, pathApi: path.PlatformPath = path): boolean {
  const rel = pathApi.relative(pathApi.resolve(root), pathApi.resolve(p));
  return rel === '' || (!rel.startsWith('..') && !pathApi.isAbsolute(rel));
}

export function isSystemPath(p: string, pathApi: path.PlatformPath = path): boolean {
  if (pathApi === path.win32) return p.startsWith('\\\\.\\') || p.startsWith('\\\\?\\');
  return SYSTEM_TREES.some((t) => isInside(p, t, pathApi));
}

/** The scheme of an absolute URI (lower case), by a scan of its first characters. */
function schemeOf(uri: string): string | undefined {
  const m = /^([a-z][a-z0-9+.-]{0,63}):/i.exec(uri.slice(0, 66));
  return m?.[1]?.toLowerCase();
}

function truncateScheme(s: string): string {
  return s.length > 20 ? s.slice(0, 19) + '…' : s;
}
