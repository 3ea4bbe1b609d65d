// Registry icons for the quick pick: an entry's `icon` (an SVG URL, relative to the index) is
// fetched once, at most 64 KiB, kept only when it is an SVG, and cached in `<storage>/icons`. Only
// from where the index may send us (publicAddress.ts iconGuard): a remote index's icons come over
// https from public addresses (every address of the name checked, the connection made to a checked
// one) or from the index's own origin; a local index's from anywhere checkUrl allows. Failures just
// leave the entry without an icon. No `vscode`.
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { get, readBody } from './http';
import { iconGuard, systemResolve, type Resolve } from './publicAddress';
import type { RegistryEntry } from './schema';

const MAX_ICON_BYTES = 64 * 1024;
const PARALLEL = 6;

export function iconUrl(entry: RegistryEntry, indexUrl: string): string | undefined {
  if (!entry.icon) return undefined;
  try {
    return new URL(entry.icon, indexUrl).toString();
  } catch {
    return undefined;
  }
}

const iconFile = (dir: string, url: string): string => path.join(dir, crypto.createHash('sha256').update(url).digest('hex').slice(0, 32) + '.svg');

/** Looks like an SVG document (and nothing else): `<svg` first, after an optional XML prolog. */
export function looksLikeSvg(body: Buffer): boolean {
  const head = body
    .subarray(0, 1024)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  const rest = head.startsWith('<?xml') ? head.slice(head.indexOf('?>') + 2).trimStart() : head;
  const noComments = rest.startsWith('<!--') ? rest.slice(rest.indexOf('-->') + 3).trimStart() : rest;
  return /^<svg[\s>]/.test(noComments) || noComments.startsWith('<!DOCTYPE svg');
}

/** The cached file of each entry's icon (fetching the missing ones); id → file path. */
export async function loadIcons(
  entries: readonly RegistryEntry[],
  indexUrl: string,
  dir: string,
  signal?: AbortSignal,
  resolve: Resolve = systemResolve,
): Promise<Map<string, string>> {
  const guard = iconGuard(indexUrl, resolve);
  const out = new Map<string, string>();
  const todo: { id: string; url: string; file: string }[] = [];
  for (const e of entries) {
    const url = iconUrl(e, indexUrl);
    if (!url) continue;
    const file = iconFile(dir, url);
    if (fs.existsSync(file)) out.set(e.id, file);
    else todo.push({ id: e.id, url, file });
  }
  await fs.promises.mkdir(dir, { recursive: true }).catch(() => undefined);
  const worker = async (): Promise<void> => {
    for (let job = todo.shift(); job; job = todo.shift()) {
      if (signal?.aborted) return;
      try {
        const res = await get(job.url, { what: 'icon', timeoutMs: 5000, guard, ...(signal ? { signal } : {}) });
        if (res.status !== 200) {
          res.body.resume();
          continue;
        }
        const body = await readBody(res, MAX_ICON_BYTES, 'icon');
        if (!looksLikeSvg(body)) continue;
        const tmp = `${job.file}.${process.pid}.tmp`;
        await fs.promises.writeFile(tmp, body);
        await fs.promises.rename(tmp, job.file);
        out.set(job.id, job.file);
      } catch {
        /* no icon */
      }
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return out;
}
