// Loads the registry index: a conditional GET (If-None-Match / If-Modified-Since) against the
// copy cached in global storage; offline (or when the registry fails) the cached copy is used and
// its age reported. A response that does not validate never replaces a good cached copy. No `vscode`.
import { english, type L10n } from '../common/l10n';
import * as fs from 'fs';
import * as path from 'path';
import { DownloadError, get, readBody } from './http';
import { parseRegistryIndex, type RegistryIndex } from './schema';

/** The index is refused past this size. */
export const MAX_INDEX_BYTES = 8 * 1024 * 1024;

interface CacheFile {
  url: string;
  etag?: string;
  lastModified?: string;
  fetchedAt: number;
  body: string;
}

export interface LoadedIndex {
  url: string;
  index: RegistryIndex;
  /** When the registry last confirmed this content (ms since epoch). */
  fetchedAt: number;
  /** Set when the cached copy was used because the registry could not be used; says why. */
  staleBecause?: string;
}

export interface LoadOptions {
  cacheDir: string;
  signal?: AbortSignal;
  now?: () => number;
  timeoutMs?: number;
  /** The words of the errors and reasons (`vscode.l10n` in the product); English when absent. */
  l10n?: L10n;
}

const cacheFile = (dir: string): string => path.join(dir, 'index-cache.json');

function readCache(dir: string, url: string): { cache: CacheFile; index: RegistryIndex } | undefined {
  try {
    const c = JSON.parse(fs.readFileSync(cacheFile(dir), 'utf8')) as CacheFile;
    if (c.url !== url || typeof c.body !== 'string' || typeof c.fetchedAt !== 'number') return undefined;
    return { cache: c, index: parseRegistryIndex(c.body, url) };
  } catch {
    return undefined;
  }
}

async function writeCache(dir: string, c: CacheFile): Promise<void> {
  await fs.promises.mkdir(dir, { recursive: true });
  const tmp = `${cacheFile(dir)}.${process.pid}.${Date.now()}.tmp`;
  await fs.promises.writeFile(tmp, JSON.stringify(c));
  await fs.promises.rename(tmp, cacheFile(dir));
}

/** "3 minutes", "2 hours", "5 days": how old a cached copy is. */
export function describeAge(ms: number, l10n: L10n = english): string {
  const min = Math.max(0, Math.round(ms / 60000));
  if (min < 1) return l10n.t('less than a minute');
  if (min < 60) return min === 1 ? l10n.t('1 minute') : l10n.t('{0} minutes', min);
  const h = Math.round(min / 60);
  if (h < 48) return h === 1 ? l10n.t('1 hour') : l10n.t('{0} hours', h);
  return l10n.t('{0} days', Math.round(h / 24));
}

export async function loadIndex(url: string, opts: LoadOptions): Promise<LoadedIndex> {
  const now = opts.now ?? Date.now;
  const l10n = opts.l10n ?? english;
  const cached = readCache(opts.cacheDir, url);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (cached?.cache.etag) headers['if-none-match'] = cached.cache.etag;
  if (cached?.cache.lastModified) headers['if-modified-since'] = cached.cache.lastModified;
  const fallback = (reason: string): LoadedIndex => {
    if (!cached)
      throw new DownloadError(
        l10n.t('{0} No copy of the registry is cached yet, so no agents can be listed. Check the network and the setting "acp.registry.url".', reason),
      );
    return { url, index: cached.index, fetchedAt: cached.cache.fetchedAt, staleBecause: reason };
  };
  let res;
  try {
    res = await get(url, { headers, what: l10n.t('ACP Registry'), l10n, ...(opts.signal ? { signal: opts.signal } : {}), timeoutMs: opts.timeoutMs ?? 15_000 });
  } catch (err) {
    if (!(err instanceof DownloadError)) throw err; // cancelled
    return fallback(err.message);
  }
  if (res.status === 304 && cached) {
    res.body.resume();
    const fetchedAt = now();
    await writeCache(opts.cacheDir, { ...cached.cache, fetchedAt }).catch(() => undefined);
    return { url, index: cached.index, fetchedAt };
  }
  if (res.status !== 200) {
    res.body.resume();
    return fallback(l10n.t('The ACP Registry at {0} answered HTTP {1}.', url, res.body.statusMessage ? `${res.status} ${res.body.statusMessage}` : res.status));
  }
  const body = (await readBody(res, MAX_INDEX_BYTES, l10n.t('ACP Registry index at {0}', url), l10n)).toString('utf8');
  const index = parseRegistryIndex(body, url); // a bad index is an error; the cache keeps the last good one
  const fetchedAt = now();
  const etag = typeof res.headers.etag === 'string' ? res.headers.etag : undefined;
  const lastModified = typeof res.headers['last-modified'] === 'string' ? res.headers['last-modified'] : undefined;
  await writeCache(opts.cacheDir, { url, fetchedAt, body, ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}) }).catch(() => undefined);
  return { url, index, fetchedAt };
}
