// The key set intent tokens are checked against, loaded from a setting value: an absolute local
// path (or `file:` URL, or `~/…`) or an `https:` URL. Plain `http:` is refused: whoever can change
// the keys in transit can make forged tokens look verified.
//
// Loads are cached for a TTL (failures for a shorter time), concurrent callers share one load,
// and `reload()` forces a fresh one.
import { readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseJwks, type Jwks } from './keys';
import { english, type L10n } from '../common/l10n';

export type JwksLocation = { kind: 'none' } | { kind: 'file'; path: string } | { kind: 'https'; url: string } | { kind: 'invalid'; error: string };

export type JwksLoad =
  /** No key source configured: tokens show as unverified. */
  { state: 'none' } | { state: 'loaded'; jwks: Jwks; from: string; loadedAt: Date } | { state: 'error'; error: string; from: string };

export interface JwksSourceOptions {
  /** How long loaded keys are reused (default 10 min). */
  ttlMs?: number;
  /** How long a failure is remembered before the next attempt (default 30 s). */
  errorTtlMs?: number;
  /** Network timeout (default 10 s). */
  timeoutMs?: number;
  /** Largest key set accepted (default 256 KiB). */
  maxBytes?: number;
  fetch?: typeof fetch;
  now?: () => number;
  /** The user's language for load errors (vscode.l10n in the product). */
  l10n?: L10n;
}

/** Classifies a setting value. Relative paths are refused: there is no sensible base for them. */
export function parseJwksLocation(setting: string | undefined | null, l10n: L10n = english): JwksLocation {
  const value = (setting ?? '').trim();
  if (value === '') return { kind: 'none' };
  if (/^[a-zA-Z]:[\\/]/.test(value) || value.startsWith('\\\\')) return { kind: 'file', path: value }; // Windows paths
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(value)?.[1]?.toLowerCase();
  if (scheme === 'https') {
    try {
      return { kind: 'https', url: new URL(value).href };
    } catch {
      return { kind: 'invalid', error: l10n.t('"{0}" is not a valid URL.', value) };
    }
  }
  if (scheme === 'http') return { kind: 'invalid', error: l10n.t('Refusing to load intent keys over plain http:. Use an https: URL or a local file.') };
  if (scheme === 'file') {
    try {
      return { kind: 'file', path: fileURLToPath(value) };
    } catch {
      return { kind: 'invalid', error: l10n.t('"{0}" is not a valid file: URL.', value) };
    }
  }
  if (scheme !== undefined)
    return { kind: 'invalid', error: l10n.t('Unsupported scheme "{0}:" for intent keys. Use an https: URL or a local file path.', scheme) };
  if (value === '~' || value.startsWith('~/')) return { kind: 'file', path: path.join(homedir(), value.slice(1)) };
  if (!path.isAbsolute(value)) return { kind: 'invalid', error: l10n.t('The intent key file path "{0}" must be absolute.', value) };
  return { kind: 'file', path: value };
}

export class JwksSource {
  private location: JwksLocation;
  private cached: { load: JwksLoad; until: number } | undefined;
  private inflight: Promise<JwksLoad> | undefined;
  private generation = 0;
  private readonly opts: Required<Omit<JwksSourceOptions, 'fetch' | 'l10n'>> & { fetch: typeof fetch | undefined };
  private readonly l10n: L10n;

  constructor(setting: string | undefined | null, options: JwksSourceOptions = {}) {
    this.l10n = options.l10n ?? english;
    this.location = parseJwksLocation(setting, this.l10n);
    this.opts = {
      ttlMs: options.ttlMs ?? 10 * 60_000,
      errorTtlMs: options.errorTtlMs ?? 30_000,
      timeoutMs: options.timeoutMs ?? 10_000,
      maxBytes: options.maxBytes ?? 256 * 1024,
      now: options.now ?? Date.now,
      fetch: options.fetch,
    };
  }

  /** Points the source at a new setting value and drops the cache. */
  setLocation(setting: string | undefined | null): void {
    this.location = parseJwksLocation(setting, this.l10n);
    this.cached = undefined;
    this.inflight = undefined;
    this.generation++;
  }

  /** The keys, from the cache while it is fresh. */
  get(): Promise<JwksLoad> {
    if (this.cached && this.opts.now() < this.cached.until) return Promise.resolve(this.cached.load);
    return this.reload(false);
  }

  /** Loads the keys again (joining a load already running unless `force`). */
  reload(force = true): Promise<JwksLoad> {
    if (this.inflight && !force) return this.inflight;
    const generation = ++this.generation;
    const p = this.load().then((load) => {
      if (generation === this.generation) {
        const ttl = load.state === 'error' ? this.opts.errorTtlMs : this.opts.ttlMs;
        this.cached = { load, until: this.opts.now() + ttl };
        this.inflight = undefined;
      }
      return load;
    });
    this.inflight = p;
    return p;
  }

  private async load(): Promise<JwksLoad> {
    const loc = this.location;
    switch (loc.kind) {
      case 'none':
        return { state: 'none' };
      case 'invalid':
        return { state: 'error', error: loc.error, from: '' };
      case 'file':
        return this.finish(loc.path, await this.readLocal(loc.path));
      case 'https':
        return this.finish(loc.url, await this.fetchRemote(loc.url));
    }
  }

  private finish(from: string, text: { ok: true; text: string } | { ok: false; error: string }): JwksLoad {
    if (!text.ok) return { state: 'error', error: text.error, from };
    let json: unknown;
    try {
      json = JSON.parse(text.text);
    } catch {
      return { state: 'error', error: this.l10n.t('The intent key set at {0} is not valid JSON.', from), from };
    }
    const jwks = parseJwks(json);
    if (!jwks.ok) return { state: 'error', error: this.l10n.t('The intent key set at {0} is unusable: {1}.', from, jwks.error), from };
    return { state: 'loaded', jwks: jwks.value, from, loadedAt: new Date(this.opts.now()) };
  }

  private async readLocal(file: string): Promise<{ ok: true; text: string } | { ok: false; error: string }> {
    const l10n = this.l10n;
    try {
      const info = await stat(file);
      if (!info.isFile()) return { ok: false, error: l10n.t('The intent key path {0} is not a file.', file) };
      if (info.size > this.opts.maxBytes) return { ok: false, error: l10n.t('The intent key file {0} is larger than {1} bytes.', file, this.opts.maxBytes) };
      return { ok: true, text: await readFile(file, 'utf8') };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return { ok: false, error: l10n.t('The intent key file {0} does not exist.', file) };
      if (code === 'EACCES') return { ok: false, error: l10n.t('The intent key file {0} cannot be read (permission denied).', file) };
      return { ok: false, error: l10n.t('The intent key file {0} cannot be read: {1}', file, err instanceof Error ? err.message : String(err)) };
    }
  }

  private async fetchRemote(url: string): Promise<{ ok: true; text: string } | { ok: false; error: string }> {
    const doFetch = this.opts.fetch ?? globalThis.fetch;
    const l10n = this.l10n;
    try {
      const res = await doFetch(url, {
        headers: { accept: 'application/jwk-set+json, application/json' },
        redirect: 'follow',
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
      if (res.url && !res.url.startsWith('https:')) return { ok: false, error: l10n.t('The intent key URL {0} redirected to a non-https address.', url) };
      if (!res.ok) return { ok: false, error: l10n.t('Fetching intent keys from {0} failed: HTTP {1}.', url, res.status) };
      const declared = Number(res.headers.get('content-length') ?? '0');
      if (declared > this.opts.maxBytes) return { ok: false, error: l10n.t('The intent key set at {0} is larger than {1} bytes.', url, this.opts.maxBytes) };
      const text = await readCapped(res, this.opts.maxBytes);
      if (text === undefined) return { ok: false, error: l10n.t('The intent key set at {0} is larger than {1} bytes.', url, this.opts.maxBytes) };
      return { ok: true, text };
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      return {
        ok: false,
        error: timedOut
          ? l10n.t('Fetching intent keys from {0} timed out.', url)
          : l10n.t('Fetching intent keys from {0} failed: {1}', url, err instanceof Error ? err.message : String(err)),
      };
    }
  }
}

/** The body as text, or undefined (and the download cancelled) once it exceeds `max` bytes. */
async function readCapped(res: Response, max: number): Promise<string | undefined> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
