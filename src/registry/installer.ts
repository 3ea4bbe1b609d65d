// Installs a `binary` distribution atomically: download and unpack into a fresh temp folder under
// `<root>/tmp`, check that the entry's `cmd` is a file inside it and make it executable, then rename
// the folder to `<root>/agents/<id>/<version>`. Any failure or a cancel removes the temp folder:
// nothing half-installed is ever left where an agent is looked for. No `vscode`.
import * as fs from 'fs';
import * as path from 'path';
import { downloadTo } from './download';
import { CancelledError } from './http';
import { DEFAULT_EXTRACT_LIMITS, extractArchive, sniffArchive, TooLargeError, type ArchiveKind, type ExtractLimits } from './extract';
import { UnsupportedArchiveError } from './otherFormats';
import { binaryLaunch, binaryPlatforms, type LaunchCommand } from './launch';
import { isWithin, safeRelative } from './safePath';
import type { PlatformKey, RegistryEntry } from './schema';
import { english, type L10n } from '../common/l10n';

export class NoBuildError extends Error {}

export interface BinaryInstallOptions {
  maxDownloadBytes: number;
  limits?: ExtractLimits;
  signal?: AbortSignal;
  onProgress?: (received: number, total: number | undefined) => void;
  onPhase?: (phase: 'download' | 'unpack') => void;
  /** The built bzip2 worker, when not beside this bundle (tests). */
  bunzipWorker?: string;
  /** The words of the errors (`vscode.l10n` in the product); English when absent. */
  l10n?: L10n;
}

export interface BinaryInstall {
  installDir: string;
  launch: LaunchCommand;
  archive: string;
  kind: ArchiveKind;
  bytes: number;
  sha256: string;
}

export const agentsDir = (root: string): string => path.join(root, 'agents');
export const versionDir = (root: string, id: string, version: string): string => path.join(agentsDir(root), id, safeRelative(version, 'version'));
const tmpDir = (root: string): string => path.join(root, 'tmp');
const mibs = (n: number): number => Math.round(n / (1024 * 1024));

export function noBuildMessage(entry: RegistryEntry, platform: PlatformKey | undefined, l10n: L10n = english): string {
  const has = binaryPlatforms(entry);
  const here = platform ?? `${process.platform}-${process.arch}`;
  return has.length
    ? l10n.t('{0} {1} has no build for this machine ({2}); the registry has builds for {3}.', entry.name, entry.version, here, has.join(', '))
    : l10n.t('{0} {1} has no build for this machine ({2}).', entry.name, entry.version, here);
}

export async function installBinary(entry: RegistryEntry, platform: PlatformKey | undefined, root: string, opts: BinaryInstallOptions): Promise<BinaryInstall> {
  const target = platform ? entry.distribution.binary?.[platform] : undefined;
  const l10n = opts.l10n ?? english;
  if (!target) throw new NoBuildError(noBuildMessage(entry, platform, l10n));
  const final = versionDir(root, entry.id, entry.version);
  await fs.promises.mkdir(tmpDir(root), { recursive: true });
  const work = await fs.promises.mkdtemp(path.join(tmpDir(root), `${entry.id}-`));
  try {
    const archive = path.join(work, 'download');
    opts.onPhase?.('download');
    const got = await downloadTo(target.archive, archive, {
      maxBytes: opts.maxDownloadBytes,
      l10n,
      ...(target.sha256 ? { sha256: target.sha256 } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
    });
    opts.onPhase?.('unpack');
    const kind = await sniffArchive(archive).catch((err: unknown) => {
      if (err instanceof UnsupportedArchiveError)
        throw new UnsupportedArchiveError(
          err.format,
          l10n.t(
            'The archive of {0} is in the {1} format, which is not unpacked (zip, tar, tar.gz and tar.bz2 are); nothing was installed.',
            entry.name,
            err.format,
          ),
        );
      throw err;
    });
    const files = path.join(work, 'files');
    await fs.promises.mkdir(files);
    await extractArchive(archive, kind, files, {
      rawName: target.cmd,
      limits: opts.limits ?? DEFAULT_EXTRACT_LIMITS,
      l10n,
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.bunzipWorker ? { bunzipWorker: opts.bunzipWorker } : {}),
    }).catch((err: unknown) => {
      if (err instanceof TooLargeError)
        throw new TooLargeError(err.maxBytes, l10n.t('The archive of {0} unpacks to more than {1} MiB; it was not installed.', entry.name, mibs(err.maxBytes)));
      throw err;
    });
    await makeExecutable(files, target.cmd, entry, l10n);
    if (opts.signal?.aborted) throw new CancelledError();
    // The version folder is replaced only by a complete one.
    await fs.promises.mkdir(path.dirname(final), { recursive: true });
    await fs.promises.rm(final, { recursive: true, force: true });
    await fs.promises.rename(files, final);
    return { installDir: final, launch: binaryLaunch(target, final), archive: target.archive, kind, bytes: got.bytes, sha256: got.sha256 };
  } finally {
    await fs.promises.rm(work, { recursive: true, force: true });
  }
}

/** The entry's `cmd` must be a regular file inside the unpacked folder; it is made executable. */
async function makeExecutable(files: string, cmd: string, entry: RegistryEntry, l10n: L10n): Promise<void> {
  const rel = safeRelative(cmd, 'cmd', l10n);
  const full = path.resolve(files, rel);
  const real = await fs.promises.realpath(full).catch(() => undefined);
  const root = await fs.promises.realpath(files);
  const st = real ? await fs.promises.stat(real).catch(() => undefined) : undefined;
  if (!real || !st?.isFile()) throw new Error(l10n.t('The archive of {0} has no file "{1}" (the entry\'s "cmd"); nothing was installed.', entry.name, cmd));
  if (!isWithin(root, real)) throw new Error(l10n.t('The entry\'s "cmd" of {0} leads outside its install folder; nothing was installed.', entry.name));
  if (process.platform !== 'win32') await fs.promises.chmod(real, st.mode | 0o755);
}

/** Removes install folders no record uses (`keep`: absolute folders in use) and stale temp folders. */
export async function prune(root: string, keep: ReadonlySet<string>, now = Date.now(), minAgeMs = 60 * 60 * 1000): Promise<string[]> {
  const removed: string[] = [];
  const old = async (p: string): Promise<boolean> => {
    const st = await fs.promises.stat(p).catch(() => undefined);
    return !!st && now - st.mtimeMs > minAgeMs;
  };
  for (const t of await fs.promises.readdir(tmpDir(root)).catch(() => [] as string[])) {
    const p = path.join(tmpDir(root), t);
    if (await old(p)) {
      await fs.promises.rm(p, { recursive: true, force: true });
      removed.push(p);
    }
  }
  for (const id of await fs.promises.readdir(agentsDir(root)).catch(() => [] as string[])) {
    const idDir = path.join(agentsDir(root), id);
    for (const v of await fs.promises.readdir(idDir).catch(() => [] as string[])) {
      const p = path.join(idDir, v);
      if (!keep.has(p) && (await old(p))) {
        await fs.promises.rm(p, { recursive: true, force: true });
        removed.push(p);
      }
    }
    if ((await fs.promises.readdir(idDir).catch(() => ['x'])).length === 0) await fs.promises.rmdir(idDir).catch(() => undefined);
  }
  return removed;
}
