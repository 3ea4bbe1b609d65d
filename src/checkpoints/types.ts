// The shapes the checkpoint engine hands out (re-exported by shadowRepo.ts, its entry point).

export interface ShadowRepoOptions {
  /** The shadow repository, created when missing (<extension storage>/checkpoints/<id>.git). */
  readonly gitDir: string;
  /** The workspace folder: only read, never written. */
  readonly workTree: string;
  /** The git executable; default 'git'. */
  readonly git?: string;
  /** Larger files are not checkpointed (listed in `skipped`); default 2 MiB. */
  readonly maxFileBytes?: number;
  /** Binary files (a NUL in the first 8,000 bytes) larger than this are not checkpointed; default 256 KiB. */
  readonly maxBinaryBytes?: number;
  /** A work tree with more files (not ignored) is refused with a CheckpointError; default 100,000. */
  readonly maxFiles?: number;
  /** Past this, the oldest checkpoints (across tags) are pruned first; default 512 MiB. */
  readonly maxStoreBytes?: number;
  readonly log?: (line: string) => void;
  /** The environment git starts from, before every GIT_* variable is dropped and ours are set; default process.env. */
  readonly env?: NodeJS.ProcessEnv;
}

export interface Checkpoint {
  /** The commit id. */
  readonly id: string;
  /** When it was taken (ms since the epoch). */
  readonly time: number;
  /** How long taking it took, waiting for earlier operations not included. */
  readonly ms: number;
  /** Files left out (over a cap, nested repositories, not regular files), at most 1,000 listed. */
  readonly skipped: readonly { path: string; why: string; link?: string }[];
  /** How many were left out in all (more than `skipped` lists when over 1,000). */
  readonly skippedTotal: number;
  /** The tree id: equal for two checkpoints of the same files. */
  readonly tree: string;
  /** How many paths git was given to look at again (changed, new or gone since the last checkpoint of this folder). */
  readonly looked: number;
}

export interface ChangedFile {
  /** Relative to the work tree, posix separators. */
  readonly path: string;
  readonly status: 'added' | 'modified' | 'deleted';
  readonly added: number;
  readonly removed: number;
  readonly binary: boolean;
}
