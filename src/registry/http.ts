// HTTP GET for the registry and its archives: https only (plain http only to a loopback host),
// redirects followed (at most 5, each checked the same way, and by the caller's guard if any: where
// the connection may go and the lookup it uses), a connect/idle timeout, cancellation through an
// AbortSignal. No `vscode`.
import * as http from 'http';
import * as https from 'https';
import * as net from 'net';
import { english, type L10n } from '../common/l10n';

export class DownloadError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}
export class CancelledError extends Error {
  constructor() {
    super('Cancelled.');
  }
}

const MAX_REDIRECTS = 5;

function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (net.isIPv4(h)) return h.startsWith('127.');
  return h === '::1';
}

/** Throws when `raw` may not be fetched: https anywhere, http only to 127.0.0.0/8, ::1, localhost. */
export function checkUrl(raw: string, what: string, l10n: L10n = english): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new DownloadError(l10n.t('The {0} "{1}" is not a URL.', what, raw));
  }
  if (u.protocol === 'https:') return u;
  if (u.protocol === 'http:' && isLoopback(u.hostname)) return u;
  if (u.protocol === 'http:')
    throw new DownloadError(
      l10n.t('The {0} {1} uses plain http, which is allowed only for this machine (localhost, 127.0.0.1, ::1). Use an https address.', what, u.origin),
    );
  throw new DownloadError(l10n.t('The {0} "{1}" is not an https address.', what, raw));
}

export interface GetOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** No bytes for this long (connecting or reading) fails the request. */
  timeoutMs?: number;
  /** What is fetched, for people ("ACP Registry", "download"), in the words of `l10n`. */
  what: string;
  /** The words of the errors (`vscode.l10n` in the product); English when absent. */
  l10n?: L10n;
  /**
   * Checked before every connection (the first URL and each redirect): throws to refuse it, and may
   * give the `lookup` the connection must use (publicAddress.ts: only checked addresses).
   */
  guard?: (url: URL) => { lookup?: net.LookupFunction };
}

export interface GetResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  url: string;
  body: http.IncomingMessage;
}

/** GET `raw`, following redirects; resolves with the final response (any status), body unread. */
export async function get(raw: string, opts: GetOptions): Promise<GetResponse> {
  const l10n = opts.l10n ?? english;
  let url = checkUrl(raw, opts.what, l10n);
  for (let hop = 0; ; hop++) {
    const res = await once(url, opts);
    const loc = res.headers.location;
    if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400 && res.statusCode !== 304 && loc) {
      res.resume();
      if (hop >= MAX_REDIRECTS) throw new DownloadError(l10n.t('The {0} {1} redirected more than {2} times.', opts.what, url.origin, MAX_REDIRECTS));
      url = checkUrl(new URL(loc, url).toString(), l10n.t('{0} (redirected)', opts.what), l10n);
      continue;
    }
    return { status: res.statusCode ?? 0, headers: res.headers, url: url.toString(), body: res };
  }
}

function once(url: URL, opts: GetOptions): Promise<http.IncomingMessage> {
  const l10n = opts.l10n ?? english;
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) {
      reject(new CancelledError());
      return;
    }
    let lookup: net.LookupFunction | undefined;
    try {
      lookup = opts.guard?.(url).lookup;
    } catch (err) {
      reject(err instanceof Error ? err : new DownloadError(String(err)));
      return;
    }
    const lib = url.protocol === 'https:' ? https : http;
    const req = lib.get(url, { headers: { 'user-agent': 'acp-plans', ...(opts.headers ?? {}) }, ...(lookup ? { lookup } : {}) });
    const timeoutMs = opts.timeoutMs ?? 30_000;
    let response: http.IncomingMessage | undefined;
    // One idle timeout on the socket: before the response (connect, headers) and while the body is read.
    req.setTimeout(timeoutMs, () => {
      const s = Math.round(timeoutMs / 1000);
      const err = new DownloadError(
        response
          ? l10n.t('The {0} {1} stopped sending data for {2} s.', opts.what, url.origin, s)
          : l10n.t('The {0} {1} did not answer for {2} s.', opts.what, url.origin, s),
      );
      if (response) response.destroy(err);
      else req.destroy(err);
    });
    const onAbort = (): void => {
      req.destroy(new CancelledError());
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('response', (res) => {
      opts.signal?.removeEventListener('abort', onAbort);
      response = res;
      if (opts.signal) {
        const abortBody = (): void => {
          res.destroy(new CancelledError());
        };
        opts.signal.addEventListener('abort', abortBody, { once: true });
        res.once('close', () => opts.signal?.removeEventListener('abort', abortBody));
      }
      resolve(res);
    });
    req.on('error', (err) => {
      opts.signal?.removeEventListener('abort', onAbort);
      if (err instanceof CancelledError || err instanceof DownloadError) reject(err);
      else reject(new DownloadError(l10n.t('Could not reach the {0} {1}: {2}.', opts.what, url.origin, err.message)));
    });
  });
}

/** Reads a whole (small) body, failing past `maxBytes`. */
export async function readBody(res: GetResponse, maxBytes: number, what: string, l10n: L10n = english): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    n += chunk.length;
    if (n > maxBytes) {
      res.body.destroy();
      throw new DownloadError(l10n.t('The {0} is larger than {1} bytes; it is refused.', what, maxBytes));
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
