// Extracts a downloaded archive into a fresh folder: zip (yauzl), tar, tar.gz/tgz (node zlib +
// tar-stream), tar.bz2/tbz2 (bunzip.ts: a worker thread + tar-stream), or a raw binary (an archive of another
// format, xz for one, is refused: otherFormats.ts). Nothing is
// decoded in long synchronous steps on this thread: zlib inflates on libuv's pool, bzip2 in a worker. The kind is read from
// the file's first bytes, not trusted from the URL. Every name goes through safeRelative (no `..`,
// no absolute paths); files never overwrite each other; links are made last (so nothing is ever
// written through one) and only when they point inside the folder, on paper and then on disk (each
// link followed with realpath must land inside: no chain of links leads out); special files are refused; the
// number of entries and the bytes written are capped, and so are the bytes a decompressor produces
// (counted as they come, so a bomb stops early: TooLargeError). No `vscode`.
import * as fs from 'fs';
import * as path from 'path';
import { Readable, Transform } from 'stream';
import { pipeline } from 'stream/promises';
import * as zlib from 'zlib';
import * as yauzl from 'yauzl';
import * as tarStream from 'tar-stream';
import { BunzipStream } from './bunzip';
import { notUnpacked, UnsupportedArchiveError } from './otherFormats';
import { CancelledError } from './http';
import { inside, isWithin, linkStaysInside, printable, safeRelative, UnsafeEntryError } from './safePath';
import { english, type L10n } from '../common/l10n';

export type ArchiveKind = 'zip' | 'tar' | 'tar.gz' | 'tar.bz2' | 'raw';

export interface ExtractLimits {
  maxEntries: number;
  maxBytes: number;
}
export const DEFAULT_EXTRACT_LIMITS: ExtractLimits = { maxEntries: 20_000, maxBytes: 2 * 1024 * 1024 * 1024 };
/**
 * A compressed archive may unpack to at most this many times its own size (past the floor below):
 * agent builds compress 2–10 times, a bomb thousands of times, so a bomb is refused after a few
 * seconds of decoding instead of filling the disk up to `maxBytes`.
 */
export const MAX_EXPANSION_RATIO = 100;
/** Any archive may unpack to this much, whatever its size (small archives of text compress well). */
export const EXPANSION_FLOOR_BYTES = 16 * 1024 * 1024;

/** The unpacked cap of a compressed archive of `packedBytes`: the limit, or less for a small archive. */
export function unpackedCap(limits: ExtractLimits, packedBytes: number): ExtractLimits {
  const byRatio = Math.max(EXPANSION_FLOOR_BYTES, packedBytes * MAX_EXPANSION_RATIO);
  return byRatio < limits.maxBytes ? { ...limits, maxBytes: byRatio } : limits;
}

export class ArchiveError extends Error {}

/** The archive unpacks (or would) to more than `maxBytes`. */
export class TooLargeError extends ArchiveError {
  constructor(
    readonly maxBytes: number,
    message = `The archive unpacks to more than ${Math.round(maxBytes / 1048576)} MiB; it is refused.`,
  ) {
    super(message);
  }
}

/**
 * What a tar stream may hold beyond its files' bytes: per entry a header, padding and perhaps a
 * long-name or pax header.
 */
const TAR_OVERHEAD_PER_ENTRY = 2048;

/** The archive kind from its first bytes (zip, gzip, bzip2, ustar), else a raw binary; an archive of another format is an UnsupportedArchiveError. */
export async function sniffArchive(file: string): Promise<ArchiveKind> {
  const fd = await fs.promises.open(file, 'r');
  try {
    const head = Buffer.alloc(512);
    const { bytesRead } = await fd.read(head, 0, 512, 0);
    const b = head.subarray(0, bytesRead);
    if (b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && (b[2] === 3 || b[2] === 5) && (b[3] === 4 || b[3] === 6)) return 'zip';
    if (b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b) return 'tar.gz';
    if (b.length >= 3 && b.toString('latin1', 0, 3) === 'BZh') return 'tar.bz2';
    if (b.length >= 262 && b.toString('latin1', 257, 262) === 'ustar') return 'tar';
    const other = notUnpacked(b);
    if (other) throw new UnsupportedArchiveError(other);
    return 'raw';
  } finally {
    await fd.close();
  }
}

interface Pending {
  links: { rel: string; target: string }[];
  hardLinks: { rel: string; target: string }[];
}

/** Counts entries and bytes against the limits; carries the words of the refusals (`l10n`). */
class Budget {
  entries = 0;
  bytes = 0;
  constructor(
    private readonly limits: ExtractLimits,
    private readonly signal: AbortSignal | undefined,
    readonly l10n: L10n,
  ) {}
  entry(): void {
    if (this.signal?.aborted) throw new CancelledError();
    if (++this.entries > this.limits.maxEntries)
      throw new ArchiveError(this.l10n.t('The archive has more than {0} entries; it is refused.', this.limits.maxEntries));
  }
  add(n: number): void {
    if (this.signal?.aborted) throw new CancelledError();
    this.bytes += n;
    if (this.bytes > this.limits.maxBytes) throw this.tooLarge();
  }
  /** Refuses an entry whose announced size would go over (before any of it is inflated). */
  expect(n: number): void {
    if (this.bytes + n > this.limits.maxBytes) throw this.tooLarge();
  }
  tooLarge(): TooLargeError {
    const mib = Math.round(this.limits.maxBytes / 1048576);
    return new TooLargeError(this.limits.maxBytes, this.l10n.t('The archive unpacks to more than {0} MiB; it is refused.', mib));
  }
  get maxBytes(): number {
    return this.limits.maxBytes;
  }
  /** The most a decompressor may produce for a tar stream: the files' bytes and the tar's own. */
  get streamCap(): number {
    return this.limits.maxBytes + this.limits.maxEntries * TAR_OVERHEAD_PER_ENTRY;
  }
}

/** Counts what a decompressor produces; past `cap` the stream fails (so inflating stops early). */
function producedCounter(cap: number, tooLarge: () => Error): NodeJS.ReadWriteStream {
  let produced = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      produced += chunk.length;
      if (produced > cap) done(tooLarge());
      else done(null, chunk);
    },
  });
}

async function writeFile(dest: string, rel: string, source: Readable, mode: number, budget: Budget): Promise<void> {
  const full = inside(dest, rel, budget.l10n);
  await fs.promises.mkdir(path.dirname(full), { recursive: true });
  const counter = async function* (src: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    for await (const chunk of src) {
      budget.add(chunk.length);
      yield chunk;
    }
  };
  try {
    await pipeline(source, counter, fs.createWriteStream(full, { flags: 'wx', mode: (mode & 0o777) | 0o600 }));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST')
      throw new ArchiveError(budget.l10n.t('The archive lists "{0}" twice; it is refused.', printable(rel)));
    throw err;
  }
}

/** Links last: hard links become copies of files already extracted; symlinks must point inside. */
async function finishLinks(dest: string, p: Pending, budget: Budget): Promise<void> {
  const l10n = budget.l10n;
  for (const h of p.hardLinks) {
    const from = inside(dest, safeRelative(h.target, 'entry', l10n), l10n);
    const to = inside(dest, h.rel, l10n);
    const st = await fs.promises.lstat(from).catch(() => undefined);
    if (!st?.isFile())
      throw new ArchiveError(
        l10n.t('The archive\'s hard link "{0}" points at "{1}", which is not a file in the archive; it is refused.', printable(h.rel), printable(h.target)),
      );
    budget.add(st.size);
    await fs.promises.mkdir(path.dirname(to), { recursive: true });
    await fs.promises.copyFile(from, to, fs.constants.COPYFILE_EXCL);
  }
  const realRoot = await fs.promises.realpath(dest);
  for (const l of p.links) {
    if (!linkStaysInside(l.rel, l.target))
      throw new UnsafeEntryError(
        l10n.t('The archive\'s symlink "{0}" points outside the install folder ("{1}"); it is refused.', printable(l.rel), printable(l.target)),
      );
    const full = inside(dest, l.rel, l10n);
    await fs.promises.mkdir(path.dirname(full), { recursive: true });
    // The folder it goes in must be the real one (no link made earlier on its way).
    const parentReal = await fs.promises.realpath(path.dirname(full));
    if (parentReal !== path.resolve(realRoot, path.dirname(l.rel))) {
      throw new UnsafeEntryError(l10n.t('The archive\'s symlink "{0}" lies inside another link; it is refused.', printable(l.rel)));
    }
    await fs.promises.symlink(l.target, full);
  }
  if (p.links.length) await checkLinksPhysically(dest, realRoot, l10n);
}

/**
 * Every symlink under `dest`, followed on disk (realpath, through any other link on its way), must
 * land on something inside the folder: a chain of links each inside on paper (`sub/up -> ..`,
 * `sub/up2 -> up/..`) can still lead out. A link that leads out, dangles or loops is refused.
 */
async function checkLinksPhysically(dest: string, realRoot: string, l10n: L10n): Promise<void> {
  const folders = [dest];
  for (let dir = folders.pop(); dir !== undefined; dir = folders.pop()) {
    for (const d of await fs.promises.readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, d.name);
      if (d.isDirectory()) folders.push(full);
      if (!d.isSymbolicLink()) continue;
      const rel = path.relative(dest, full).split(path.sep).join('/');
      const real = await fs.promises.realpath(full).catch(() => undefined);
      if (real === undefined)
        throw new UnsafeEntryError(l10n.t('The archive\'s symlink "{0}" points at nothing in the archive (or loops); it is refused.', printable(rel)));
      if (!isWithin(realRoot, real))
        throw new UnsafeEntryError(
          l10n.t('The archive\'s symlink "{0}" resolves outside the install folder through other links; it is refused.', printable(rel)),
        );
    }
  }
}

async function extractTar(file: string, kind: 'tar' | 'tar.gz' | 'tar.bz2', dest: string, budget: Budget, bunzipWorker?: string): Promise<void> {
  const extractor = tarStream.extract();
  const tooLarge = (): Error => budget.tooLarge();
  const source: Readable =
    kind === 'tar.bz2'
      ? new BunzipStream(file, { maxBytes: budget.streamCap, tooLarge, ...(bunzipWorker ? { workerFile: bunzipWorker } : {}) })
      : fs.createReadStream(file);
  const stages: NodeJS.ReadWriteStream[] = kind === 'tar.gz' ? [zlib.createGunzip(), producedCounter(budget.streamCap, tooLarge)] : [];
  try {
    await unpackTar(source, stages, extractor, dest, budget);
  } finally {
    // The bzip2 worker is gone before the caller removes the folder.
    if (source instanceof BunzipStream) {
      source.destroy();
      await source.exited;
    }
  }
}

async function unpackTar(source: Readable, stages: NodeJS.ReadWriteStream[], extractor: tarStream.Extract, dest: string, budget: Budget): Promise<void> {
  const feeding = pipeline([source, ...stages, extractor] as readonly NodeJS.ReadWriteStream[]).catch((err: unknown) => {
    extractor.destroy(err as Error);
    throw err;
  });
  const pending: Pending = { links: [], hardLinks: [] };
  try {
    for await (const entry of extractor) {
      budget.entry();
      const h = entry.header;
      const rel = safeRelative(h.name, 'entry', budget.l10n);
      switch (h.type) {
        case 'file':
        case 'contiguous-file':
        case undefined:
        case null:
          if (!rel) throw new ArchiveError(budget.l10n.t('The archive has a file without a name; it is refused.'));
          await writeFile(dest, rel, entry as unknown as Readable, h.mode ?? 0o644, budget);
          break;
        case 'directory':
          entry.resume();
          if (rel) await fs.promises.mkdir(inside(dest, rel, budget.l10n), { recursive: true });
          break;
        case 'symlink':
          entry.resume();
          pending.links.push({ rel, target: h.linkname ?? '' });
          break;
        case 'link':
          entry.resume();
          pending.hardLinks.push({ rel, target: h.linkname ?? '' });
          break;
        default:
          throw new ArchiveError(budget.l10n.t('The archive holds a special file "{0}" ({1}); it is refused.', printable(h.name), String(h.type)));
      }
    }
    await feeding;
  } catch (err) {
    source.destroy();
    await feeding.catch(() => undefined);
    throw err;
  }
  await finishLinks(dest, pending, budget);
}

const S_IFMT = 0o170000,
  S_IFLNK = 0o120000,
  S_IFDIR = 0o040000,
  S_IFREG = 0o100000;

async function extractZip(file: string, dest: string, budget: Budget): Promise<void> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(file, { lazyEntries: true, validateEntrySizes: true, strictFileNames: true });
  } catch (err) {
    throw zipErrorIn(err, budget.l10n);
  }
  const pending: Pending = { links: [], hardLinks: [] };
  try {
    for (let e = await nextEntry(zip, budget.l10n); e; e = await nextEntry(zip, budget.l10n)) await zipEntry(zip, e, dest, pending, budget);
  } finally {
    zip.close();
  }
  await finishLinks(dest, pending, budget);
}

/** The zip's next entry; undefined at its end. */
function nextEntry(zip: yauzl.ZipFile, l10n: L10n): Promise<yauzl.Entry | undefined> {
  return new Promise((resolve, reject) => {
    const done = (): void => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    const onEntry = (e: yauzl.Entry): void => {
      done();
      resolve(e);
    };
    const onEnd = (): void => {
      done();
      resolve(undefined);
    };
    const onError = (err: unknown): void => {
      done();
      reject(zipErrorIn(err, l10n));
    };
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}

/** Unpacks one entry: a folder, a file, or a symlink (made last, by finishLinks); refuses anything else. */
async function zipEntry(zip: yauzl.ZipFile, e: yauzl.Entry, dest: string, pending: Pending, budget: Budget): Promise<void> {
  const l10n = budget.l10n;
  const zipError = (err: unknown): Error => zipErrorIn(err, l10n);
  budget.entry();
  const rel = safeRelative(e.fileName, 'entry', l10n);
  const unixMode = e.versionMadeBy >> 8 === 3 ? e.externalFileAttributes >>> 16 : 0;
  const type = unixMode & S_IFMT;
  if (e.fileName.endsWith('/') || type === S_IFDIR) {
    if (rel) await fs.promises.mkdir(inside(dest, rel, budget.l10n), { recursive: true });
    return;
  }
  if (type !== 0 && type !== S_IFREG && type !== S_IFLNK)
    throw new ArchiveError(l10n.t('The archive holds a special file "{0}"; it is refused.', printable(e.fileName)));
  if (!rel) throw new ArchiveError(l10n.t('The archive has a file without a name; it is refused.'));
  if (e.isEncrypted()) throw new ArchiveError(l10n.t('The archive\'s file "{0}" is encrypted; it cannot be installed.', printable(e.fileName)));
  // yauzl checks (validateEntrySizes) that no entry inflates to more than it announces.
  budget.expect(e.uncompressedSize);
  const stream = await zip.openReadStreamPromise(e).catch((err: unknown) => {
    throw zipError(err);
  });
  if (type === S_IFLNK) {
    if (e.uncompressedSize > 4096) throw new ArchiveError(l10n.t('The archive\'s symlink "{0}" is too long.', printable(e.fileName)));
    const chunks: Buffer[] = [];
    for await (const c of stream as AsyncIterable<Buffer>) chunks.push(c);
    pending.links.push({ rel, target: Buffer.concat(chunks).toString('utf8') });
    return;
  }
  await writeFile(dest, rel, stream, unixMode ? unixMode & 0o777 : 0o644, budget).catch((err: unknown) => {
    throw zipError(err);
  });
}

/** yauzl's own name checks and format errors, in our words. */
function zipErrorIn(err: unknown, l10n: L10n): Error {
  if (err instanceof ArchiveError || err instanceof UnsafeEntryError || err instanceof CancelledError) return err;
  const m = err instanceof Error ? err.message : String(err);
  if (/^(absolute path|invalid relative path|invalid characters in fileName)/.test(m))
    return new UnsafeEntryError(
      l10n.t('The archive\'s entry "{0}" would land outside the install folder or has an invalid name; it is refused.', printable(m.replace(/^[^:]*: /, ''))),
    );
  if (/^too many bytes in the stream/.test(m))
    return new ArchiveError(l10n.t('The zip archive has a file that unpacks to more than the size it announces; it is refused.'));
  return new ArchiveError(l10n.t('The zip archive is damaged ({0}).', printable(m)));
}

/** Unpacks `file` (of `kind`) into `dest` (an empty folder). `rawName` is where a raw binary goes. */
export async function extractArchive(
  file: string,
  kind: ArchiveKind,
  dest: string,
  opts: { rawName: string; limits?: ExtractLimits; signal?: AbortSignal; bunzipWorker?: string; l10n?: L10n },
): Promise<{ entries: number; bytes: number }> {
  const limits = opts.limits ?? DEFAULT_EXTRACT_LIMITS;
  const l10n = opts.l10n ?? english;
  const budget = new Budget(kind === 'raw' ? limits : unpackedCap(limits, (await fs.promises.stat(file)).size), opts.signal, l10n);
  try {
    if (kind === 'raw') {
      const rel = safeRelative(opts.rawName, 'cmd', l10n);
      budget.entry();
      await writeFile(dest, rel, fs.createReadStream(file), 0o755, budget);
    } else if (kind === 'zip') {
      await extractZip(file, dest, budget);
    } else {
      await extractTar(file, kind, dest, budget, opts.bunzipWorker);
    }
  } catch (err) {
    if (err instanceof ArchiveError || err instanceof UnsafeEntryError || err instanceof CancelledError) throw err;
    const m = err instanceof Error ? err.message : String(err);
    throw new ArchiveError(l10n.t('The {0} archive could not be unpacked ({1}); it may be damaged or cut short.', kind, printable(m)));
  }
  return { entries: budget.entries, bytes: budget.bytes };
}
