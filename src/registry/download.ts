// Downloads one archive to a file: size-capped (announced length and bytes actually received),
// sha256 computed on the way and checked when the entry gives one, a body shorter than announced is
// an error, progress reported, cancellable. No `vscode`.
import * as crypto from 'crypto';
import * as fs from 'fs';
import { Transform, type TransformCallback } from 'stream';
import { pipeline } from 'stream/promises';
import { CancelledError, DownloadError, get, type GetResponse } from './http';
import { english, type L10n } from '../common/l10n';

export interface DownloadOptions {
  maxBytes: number;
  sha256?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  onProgress?: (received: number, total: number | undefined) => void;
  /** The words of the errors (`vscode.l10n` in the product); English when absent. */
  l10n?: L10n;
}

export interface Downloaded {
  bytes: number;
  sha256: string;
}

const mib = (n: number): string => `${(n / (1024 * 1024)).toFixed(1)} MiB`;

export async function downloadTo(url: string, file: string, opts: DownloadOptions): Promise<Downloaded> {
  const l10n = opts.l10n ?? english;
  const res = await get(url, {
    what: l10n.t('download'),
    l10n,
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
  });
  const total = announcedLength(url, res, opts.maxBytes, l10n);
  const meter = new Meter(url, total, opts, l10n);
  try {
    await pipeline(res.body, meter, fs.createWriteStream(file, { flags: 'wx' }));
  } catch (err) {
    if (opts.signal?.aborted) throw new CancelledError();
    if (err instanceof DownloadError || err instanceof CancelledError) throw err;
    throw new DownloadError(
      l10n.t('The download {0} was interrupted after {1} bytes ({2}); nothing was installed.', url, meter.received, (err as Error).message),
    );
  }
  const received = meter.received;
  if (total !== undefined && received !== total) {
    throw new DownloadError(l10n.t('The download {0} was cut short: {1} of {2} bytes arrived; nothing was installed.', url, received, total));
  }
  const sha256 = meter.hash.digest('hex');
  if (opts.sha256 && sha256 !== opts.sha256.toLowerCase()) {
    throw new DownloadError(
      l10n.t(
        "The download {0} does not match the registry's sha256 (expected {1}, got {2}); it may have been tampered with, so nothing was installed.",
        url,
        opts.sha256.toLowerCase(),
        sha256,
      ),
    );
  }
  return { bytes: received, sha256 };
}

/** The body's announced length (undefined: not announced); throws, reading nothing, on a status other than 200 or a length over `maxBytes`. */
function announcedLength(url: string, res: GetResponse, maxBytes: number, l10n: L10n): number | undefined {
  if (res.status !== 200) {
    res.body.resume();
    throw new DownloadError(
      l10n.t(
        'The download {0} answered HTTP {1}; nothing was installed.',
        url,
        res.body.statusMessage ? `${res.status} ${res.body.statusMessage}` : res.status,
      ),
      res.status,
    );
  }
  const lengthHeader = res.headers['content-length'];
  const total = lengthHeader !== undefined && /^\d{1,15}$/.test(lengthHeader) ? Number(lengthHeader) : undefined;
  if (total !== undefined && total > maxBytes) {
    res.body.destroy();
    throw new DownloadError(
      l10n.t('The download {0} is {1}, over the {2} limit (setting "acp.registry.maxDownloadMiB"); nothing was installed.', url, mib(total), mib(maxBytes)),
    );
  }
  return total;
}

/** Passes the body through, counting and hashing it and reporting progress; fails once it passes `maxBytes`. */
class Meter extends Transform {
  received = 0;
  readonly hash = crypto.createHash('sha256');

  constructor(
    private readonly url: string,
    private readonly total: number | undefined,
    private readonly opts: DownloadOptions,
    private readonly l10n: L10n,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.received += chunk.length;
    if (this.received > this.opts.maxBytes) {
      done(
        new DownloadError(
          this.l10n.t(
            'The download {0} is over the {1} limit (setting "acp.registry.maxDownloadMiB"); it was stopped and nothing was installed.',
            this.url,
            mib(this.opts.maxBytes),
          ),
        ),
      );
      return;
    }
    this.hash.update(chunk);
    this.opts.onProgress?.(this.received, this.total);
    done(null, chunk);
  }
}
