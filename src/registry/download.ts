// Downloads one archive to a file: size-capped (announced length and bytes actually received),
// sha256 computed on the way and checked when the entry gives one, a body shorter than announced is
// an error, progress reported, cancellable. No `vscode`.
import * as crypto from 'crypto';
import * as fs from 'fs';
import { Transform } from 'stream';
import { pipeline } from 'stream/promises';
import { CancelledError, DownloadError, get } from './http';

export interface DownloadOptions {
  maxBytes: number;
  sha256?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  onProgress?: (received: number, total: number | undefined) => void;
}

export interface Downloaded {
  bytes: number;
  sha256: string;
}

const mib = (n: number): string => `${(n / (1024 * 1024)).toFixed(1)} MiB`;

export async function downloadTo(url: string, file: string, opts: DownloadOptions): Promise<Downloaded> {
  const res = await get(url, { what: 'download', ...(opts.signal ? { signal: opts.signal } : {}), ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}) });
  if (res.status !== 200) {
    res.body.resume();
    throw new DownloadError(
      `The download ${url} answered HTTP ${res.status}${res.body.statusMessage ? ` ${res.body.statusMessage}` : ''}; nothing was installed.`,
      res.status,
    );
  }
  const lengthHeader = res.headers['content-length'];
  const total = lengthHeader !== undefined && /^\d{1,15}$/.test(lengthHeader) ? Number(lengthHeader) : undefined;
  if (total !== undefined && total > opts.maxBytes) {
    res.body.destroy();
    throw new DownloadError(
      `The download ${url} is ${mib(total)}, over the ${mib(opts.maxBytes)} limit (setting "acp.registry.maxDownloadMiB"); nothing was installed.`,
    );
  }
  const hash = crypto.createHash('sha256');
  let received = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      received += chunk.length;
      if (received > opts.maxBytes) {
        done(
          new DownloadError(
            `The download ${url} is over the ${mib(opts.maxBytes)} limit (setting "acp.registry.maxDownloadMiB"); it was stopped and nothing was installed.`,
          ),
        );
        return;
      }
      hash.update(chunk);
      opts.onProgress?.(received, total);
      done(null, chunk);
    },
  });
  try {
    await pipeline(res.body, meter, fs.createWriteStream(file, { flags: 'wx' }));
  } catch (err) {
    if (opts.signal?.aborted) throw new CancelledError();
    if (err instanceof DownloadError || err instanceof CancelledError) throw err;
    throw new DownloadError(`The download ${url} was interrupted after ${received} bytes (${(err as Error).message}); nothing was installed.`);
  }
  if (total !== undefined && received !== total) {
    throw new DownloadError(`The download ${url} was cut short: ${received} of ${total} bytes arrived; nothing was installed.`);
  }
  const sha256 = hash.digest('hex');
  if (opts.sha256 && sha256 !== opts.sha256.toLowerCase()) {
    throw new DownloadError(
      `The download ${url} does not match the registry's sha256 (expected ${opts.sha256.toLowerCase()}, got ${sha256}); it may have been tampered with, so nothing was installed.`,
    );
  }
  return { bytes: received, sha256 };
}
