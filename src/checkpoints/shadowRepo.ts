// Checkpoints of one workspace folder in a shadow git repository of ours (GIT_DIR in the
// extension's storage, the folder as GIT_WORK_TREE, our own index kept between checkpoints so git's
// stat cache makes the next one cost what changed). The folder is only read: the user's repository,
// index, stash, refs and hooks are never touched, and nothing of the workspace runs (gitProcess.ts,
// docs/SECURITY.md "Checkpoints"). Operations on one repository run one at a time, in call order;
// packing and pruning run after a checkpoint, in the same queue.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { within } from '../common/paths';
import { CheckpointError, GitMissingError } from './errors';
import { cleanEnv, GitRunner, safeConfig } from './gitProcess';
import { CheckpointRefs, isObjectId, refName, REF_PREFIX, tagKey } from './refs';
import { createRef, isSha1, writeCommit } from './looseWrite';
import { joinNul, newPathCounter, scan, splitListing } from './scan';
import { LOOSE_REFS_TO_PACK, measure, pack, parseChanges, reclaim } from './store';
import type { ChangedFile, Checkpoint, ShadowRepoOptions } from './types';

export { CheckpointError, checkpointReason, GitMissingError, type CheckpointReason } from './errors';
export { threeWay } from './threeWay';
export type { ChangedFile, Checkpoint, ShadowRepoOptions } from './types';

export const DEFAULT_MAX_FILE_BYTES = 2 * 1024 * 1024;
export const DEFAULT_MAX_BINARY_BYTES = 256 * 1024;
export const DEFAULT_MAX_FILES = 100_000;
export const DEFAULT_MAX_STORE_BYTES = 512 * 1024 * 1024;
/** The most a checkpointed file read back may hold. */
export const MAX_READ_BYTES = 64 * 1024 * 1024;
/** The most of the workspace's `.git/info/exclude` copied. */
export const MAX_EXCLUDE_BYTES = 1024 * 1024;
/** A lock file of git's older than this in the shadow repository is left from a killed run and removed at open. */
export const STALE_LOCK_MS = 60_000;
/** Pruning goes on until the store is under this share of maxStoreBytes, so it does not run after every checkpoint. */
export const PRUNE_TARGET = 0.8;

/**
 * Attributes of ours, of the highest precedence: every attribute of the workspace's .gitattributes
 * that converts content or names a driver is set back to unspecified, so files are stored as they
 * are on disk and no filter, diff or merge driver is ever looked up.
 */
const ATTRIBUTES = '* !text !eol !crlf !filter !diff !merge !ident !working-tree-encoding !export-subst !whitespace !delta\n';

interface Limits {
  readonly maxFileBytes: number;
  readonly maxBinaryBytes: number;
  readonly maxFiles: number;
  readonly maxStoreBytes: number;
}

export class ShadowRepo {
  private tail: Promise<unknown> = Promise.resolve();
  private disposed = false;
  private excludeStamp = '';
  private refsSincePack = 0;
  private reclaimWanted = false;
  /** The tree of the index as last written by write-tree (only our runs write the index). */
  private lastTree: string | undefined;

  private constructor(
    private readonly runner: GitRunner,
    private readonly opts: ShadowRepoOptions,
    private readonly limits: Limits,
    private readonly refs: CheckpointRefs,
  ) {}

  /** Opens the shadow repository, creating it on first use; GitMissingError when git cannot be run. */
  static async open(opts: ShadowRepoOptions): Promise<ShadowRepo> {
    const gitDir = path.resolve(opts.gitDir);
    const workTree = path.resolve(opts.workTree);
    if (within(workTree, gitDir) || within(gitDir, workTree)) throw new CheckpointError({ code: 'store-overlaps', data: { gitDir, workTree } });
    const empty = path.join(gitDir, 'acp-empty');
    await fsp.mkdir(empty, { recursive: true });
    const git = opts.git ?? 'git';
    const config = safeConfig(empty);
    const base = opts.env ?? process.env;
    // Created without a work tree (bare): only our runs name the folder, through GIT_WORK_TREE.
    const bare = new GitRunner(git, cleanEnv(base, empty, {}), gitDir, config);
    const version = (await bare.run(['--version'], { maxOutputBytes: 4096 })).stdout.toString('utf8').trim();
    if (!(await exists(path.join(gitDir, 'HEAD')))) await bare.run(['init', '-q', '--bare', '--template=', gitDir]);
    await fsp.mkdir(path.join(gitDir, 'info'), { recursive: true });
    await fsp.writeFile(path.join(gitDir, 'info', 'attributes'), ATTRIBUTES);
    await removeStaleLocks(gitDir);
    const env = cleanEnv(base, empty, { GIT_DIR: gitDir, GIT_WORK_TREE: workTree, GIT_INDEX_FILE: path.join(gitDir, 'index') });
    const runner = new GitRunner(git, env, gitDir, config);
    const refs = new CheckpointRefs();
    refs.load(
      (await runner.run(['for-each-ref', '--format=%(objectname) %(refname)', REF_PREFIX], { maxOutputBytes: 256 * 1024 * 1024 })).stdout.toString('utf8'),
    );
    const limits: Limits = {
      maxFileBytes: opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
      maxBinaryBytes: opts.maxBinaryBytes ?? DEFAULT_MAX_BINARY_BYTES,
      maxFiles: opts.maxFiles ?? DEFAULT_MAX_FILES,
      maxStoreBytes: opts.maxStoreBytes ?? DEFAULT_MAX_STORE_BYTES,
    };
    opts.log?.(`checkpoints of ${workTree} in ${gitDir} (${version}, ${refs.size} stored)`);
    return new ShadowRepo(runner, { ...opts, gitDir, workTree }, limits, refs);
  }

  /** A snapshot of the work tree now, kept under a ref of `tag` (any string). */
  checkpoint(tag: string): Promise<Checkpoint> {
    const cp = this.enqueue(() => this.take(tag));
    void cp.then(
      () => this.afterwards(),
      () => undefined,
    );
    return cp;
  }

  /** The files that differ between two checkpoints (no renames; line counts from numstat). */
  changes(from: string, to: string): Promise<ChangedFile[]> {
    return this.enqueue(async () => {
      this.stored(from);
      this.stored(to);
      const out = await this.runner.run(['diff-tree', '-r', '-z', '--raw', '--numstat', '--no-renames', '--no-textconv', '--no-ext-diff', from, to], {
        maxOutputBytes: 64 * 1024 * 1024,
      });
      return parseChanges(out.stdout);
    });
  }

  /** The bytes of `relPath` in checkpoint `id`; undefined when it holds no such file. */
  read(id: string, relPath: string): Promise<Buffer | undefined> {
    return this.enqueue(async () => {
      this.stored(id);
      const rel = relativePath(relPath);
      const out = await this.runner.run(['ls-tree', '-z', id, '--', rel], { maxOutputBytes: 1024 * 1024 });
      const entry = /^(\d+) (\w+) ([0-9a-f]+)\t/.exec(out.stdout.toString('utf8'));
      if (!entry || entry[2] !== 'blob') return undefined;
      return (await this.runner.run(['cat-file', 'blob', entry[3]!], { maxOutputBytes: MAX_READ_BYTES })).stdout;
    });
  }

  /** Whether checkpoint `id` is still stored (not pruned, not dropped). */
  has(id: string): Promise<boolean> {
    return this.enqueue(() => Promise.resolve(this.refs.has(id)));
  }

  /** Deletes every checkpoint of `tag`; their space is reclaimed right after. */
  dropTag(tag: string): Promise<void> {
    return this.enqueue(async () => {
      const refs = this.refs.ofTag(tagKey(tag));
      if (refs.length === 0) return;
      await this.runner.run(['update-ref', '--stdin'], { input: refs.map((r) => `delete ${r}\n`).join('') });
      for (const r of refs) this.refs.delete(r);
      this.log(`dropped ${refs.length} checkpoint(s) of a session`);
      this.reclaimWanted = true;
      this.afterwards();
    });
  }

  /** Bytes the shadow repository holds on disk (objects and index). */
  sizeBytes(): Promise<number> {
    return this.enqueue(async () => (await measure(this.runner)).bytes + (await fileSize(path.join(this.opts.gitDir, 'index'))));
  }

  /** Resolves when every operation asked for so far (packing and pruning included) is done. */
  idle(): Promise<void> {
    return this.enqueue(() => Promise.resolve());
  }

  /** Kills running git; later calls reject. */
  dispose(): void {
    this.disposed = true;
    this.runner.close();
  }

  /** Queues packing and pruning behind what is asked now. */
  private afterwards(): void {
    if (this.disposed) return;
    void this.enqueue(() => this.maintain()).catch((e: unknown) => {
      if (!this.disposed) this.log(`maintenance failed: ${message(e)}`);
    });
  }

  private enqueue<T>(job: () => Promise<T>): Promise<T> {
    const run = (): Promise<T> => (this.disposed ? Promise.reject(new CheckpointError({ code: 'closed', data: {} })) : job());
    const p = this.tail.then(run, run);
    this.tail = p.catch(() => undefined);
    return p;
  }

  private async take(tag: string): Promise<Checkpoint> {
    const time = Date.now();
    const t0 = performance.now();
    const { workTree } = this.opts;
    await this.syncExclude();
    const tracked = await indexEntries(path.join(this.opts.gitDir, 'index'));
    const { changed, untracked } = await this.listCandidates(this.limits.maxFiles - tracked);
    const candidates = [...changed, ...untracked];
    const s = await scan(workTree, candidates, this.limits, changed.length);
    const unchanged = s.update.length === 0 && s.forceRemove.length === 0;
    if (!unchanged) this.lastTree = undefined;
    if (s.forceRemove.length) await this.runner.run(['update-index', '--force-remove', '-z', '--stdin'], { input: joinNul(s.forceRemove) });
    if (s.update.length) await this.runner.run(['update-index', '--add', '--remove', '--replace', '-z', '--stdin'], { input: joinNul(s.update) });
    // Nothing handed to git: the index, and so the tree, is the one written last time.
    const tree = (unchanged && this.lastTree) || (await this.runner.run(['write-tree'])).stdout.toString('utf8').trim();
    this.lastTree = tree;
    const key = tagKey(tag);
    const seq = this.refs.nextSeq(time);
    const ref = refName(key, seq);
    // The sequence in the message makes every checkpoint's id its own, even of the same files in the same second.
    const id = await this.commit(tree, `checkpoint ${key} ${seq}`, time, ref);
    this.refs.add(ref, id);
    this.refsSincePack++;
    const ms = Math.round(performance.now() - t0);
    this.log(`checkpoint ${id.slice(0, 10)}: ${candidates.length} path(s) looked at, ${s.skippedTotal} skipped, ${ms} ms`);
    return { id, time, ms, skipped: s.skipped, skippedTotal: s.skippedTotal, tree, looked: candidates.length };
  }

  /**
   * One git run for what to look at: tracked paths whose stat data differs from the index's (or
   * that are gone), and the files git does not know yet and .gitignore does not exclude; refuses
   * when there are more of the latter than `room`.
   */
  private async listCandidates(room: number): Promise<{ changed: Buffer[]; untracked: Buffer[] }> {
    const out = await this.runner.run(['ls-files', '-z', '-t', '-o', '-m', '--exclude-standard'], {
      maxOutputBytes: 256 * 1024 * 1024,
      onStdout: newPathCounter(room),
    });
    if (out.stopped) throw new CheckpointError({ code: 'too-many-files', data: { folder: this.opts.workTree, maxFiles: this.limits.maxFiles } });
    return splitListing(out.stdout);
  }

  /** The checkpoint's commit (no parent) and its ref: written by us into our SHA-1 repository, by git otherwise. */
  private async commit(tree: string, msg: string, time: number, ref: string): Promise<string> {
    if (isSha1(tree)) {
      const id = await writeCommit(this.opts.gitDir, tree, msg, time);
      await createRef(this.opts.gitDir, ref, id);
      return id;
    }
    const id = (await this.runner.run(['commit-tree', tree, '-m', msg])).stdout.toString('utf8').trim();
    await this.runner.run(['update-ref', ref, id, '']);
    return id;
  }

  /** Packs, and prunes the oldest checkpoints when the store is over its cap. */
  private async maintain(): Promise<void> {
    const size = await measure(this.runner);
    if (size.bytes > this.limits.maxStoreBytes) await this.prune(size.bytes);
    else if (this.reclaimWanted) await reclaim(this.runner);
    else {
      await pack(this.runner, size);
      if (this.refsSincePack < LOOSE_REFS_TO_PACK) return;
      await this.runner.run(['pack-refs', '--all', '--prune']);
    }
    this.reclaimWanted = false;
    this.refsSincePack = 0;
  }

  /** Deletes the oldest checkpoints (across tags) until the store is under its target; the newest is kept even when it alone is over. */
  private async prune(bytes: number): Promise<void> {
    const target = this.limits.maxStoreBytes * PRUNE_TARGET;
    let dropped = 0;
    while (bytes > target && this.refs.size > 1) {
      const order = this.refs.oldestFirst();
      const n = Math.min(order.length - 1, Math.max(1, Math.ceil(order.length / 3)));
      const gone = order.slice(0, n);
      await this.runner.run(['update-ref', '--stdin'], { input: gone.map((r) => `delete ${r}\n`).join('') });
      for (const r of gone) this.refs.delete(r);
      dropped += n;
      await reclaim(this.runner);
      bytes = (await measure(this.runner)).bytes;
    }
    if (dropped)
      this.log(
        `pruned the ${dropped} oldest checkpoint(s): the store holds ${bytes.toLocaleString('en-US')} bytes (cap ${this.limits.maxStoreBytes.toLocaleString('en-US')})`,
      );
  }

  /** Copies the workspace repository's `.git/info/exclude` (patterns only) when it changed. */
  private async syncExclude(): Promise<void> {
    const from = path.join(this.opts.workTree, '.git', 'info', 'exclude');
    const to = path.join(this.opts.gitDir, 'info', 'exclude');
    let stamp = '';
    try {
      const st = await fsp.lstat(from);
      if (st.isFile() && st.size <= MAX_EXCLUDE_BYTES) stamp = `${st.size}:${st.mtimeMs}`;
    } catch {
      // No exclude file: none copied.
    }
    if (stamp === this.excludeStamp) return;
    if (stamp) await fsp.copyFile(from, to);
    else await fsp.rm(to, { force: true });
    this.excludeStamp = stamp;
  }

  private stored(id: string): void {
    if (!isObjectId(id)) throw new CheckpointError({ code: 'not-an-id', data: { id: id.slice(0, 80) } });
    if (!this.refs.has(id)) throw new CheckpointError({ code: 'not-stored', data: { id: id.slice(0, 10) } });
  }

  private log(line: string): void {
    this.opts.log?.(line);
  }
}

/**
 * A path inside the work tree, posix, without `.`/`..` segments; CheckpointError otherwise. A
 * backslash is a separator only where it is one (Windows); elsewhere it is part of a name.
 */
function relativePath(p: string): string {
  const rel = (path.sep === '\\' ? p.replace(/\\/g, '/') : p).replace(/^\.\//, '');
  const segments = rel.split('/');
  if (!rel || rel.includes('\0') || rel.startsWith('/') || /^[A-Za-z]:/.test(rel) || segments.some((s) => s === '..' || s === '.' || s === ''))
    throw new CheckpointError({ code: 'outside-folder', data: { path: p.slice(0, 200) } });
  return rel;
}

/** The number of entries in a git index (its header), 0 when there is none yet. */
async function indexEntries(file: string): Promise<number> {
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(file, 'r');
    const head = Buffer.alloc(12);
    const { bytesRead } = await handle.read(head, 0, 12, 0);
    return bytesRead === 12 && head.toString('latin1', 0, 4) === 'DIRC' ? head.readUInt32BE(8) : 0;
  } catch {
    return 0;
  } finally {
    await handle?.close();
  }
}

async function removeStaleLocks(gitDir: string): Promise<void> {
  for (const name of ['index.lock', 'HEAD.lock', 'packed-refs.lock', 'config.lock', 'shallow.lock']) {
    const file = path.join(gitDir, name);
    try {
      const st = await fsp.lstat(file);
      if (Date.now() - st.mtimeMs > STALE_LOCK_MS) await fsp.rm(file, { force: true });
    } catch {
      // Not there.
    }
  }
}

async function exists(p: string): Promise<boolean> {
  try {
    await fsp.lstat(p);
    return true;
  } catch {
    return false;
  }
}

async function fileSize(p: string): Promise<number> {
  try {
    return (await fsp.stat(p)).size;
  } catch {
    return 0;
  }
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** For callers that want to know whether an error means "no git here". */
export function isGitMissing(e: unknown): e is GitMissingError {
  return e instanceof GitMissingError;
}
