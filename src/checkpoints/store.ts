// The shadow repository's disk: what `git count-objects -v` says it holds, packing loose objects
// (a checkpoint writes one file per new blob and tree), and reclaiming what no ref holds any more.
// gc.auto is off for every run: this is the only maintenance the repository gets.
import type { ChangedFile } from './types';
import type { GitRunner } from './gitProcess';

/** Loose objects past this count are packed (one `repack -d`), so measuring stays cheap. */
export const LOOSE_OBJECTS_TO_PACK = 1000;
/** Packs past this count are merged into one (`repack -a -d`). */
export const PACKS_TO_MERGE = 20;
/** Loose refs (one file per checkpoint) past this count are packed into packed-refs. */
export const LOOSE_REFS_TO_PACK = 100;

export interface StoreSize {
  readonly looseObjects: number;
  readonly packs: number;
  /** Loose objects, packs and garbage on disk, in bytes. */
  readonly bytes: number;
}

export async function measure(git: GitRunner): Promise<StoreSize> {
  const out = (await git.run(['count-objects', '-v'], { maxOutputBytes: 64 * 1024 })).stdout.toString('utf8');
  const field = (name: string): number => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(out)?.[1] ?? 0);
  return {
    looseObjects: field('count'),
    packs: field('packs'),
    bytes: (field('size') + field('size-pack') + field('size-garbage')) * 1024,
  };
}

/** Packs loose objects (and merges packs when there are many). */
export async function pack(git: GitRunner, size: StoreSize): Promise<void> {
  if (size.packs >= PACKS_TO_MERGE) await git.run(['repack', '-a', '-d', '-q', '--no-write-bitmap-index']);
  else if (size.looseObjects >= LOOSE_OBJECTS_TO_PACK) await git.run(['repack', '-d', '-q', '--no-write-bitmap-index']);
}

/** Drops every object no ref (nor the index) holds: loose ones, then by rewriting the packs. */
export async function reclaim(git: GitRunner): Promise<void> {
  await git.run(['pack-refs', '--all', '--prune']);
  await git.run(['prune', '--expire=now']);
  await git.run(['repack', '-a', '-d', '-q', '--no-write-bitmap-index']);
}

const STATUS: Record<string, ChangedFile['status']> = { A: 'added', D: 'deleted', M: 'modified', T: 'modified' };

/**
 * Reads `diff-tree -r -z --raw --numstat` output: first one raw record per file
 * (`:<modes> <ids> <status>` NUL `<path>` NUL), then one numstat record per file
 * (`<added> TAB <removed> TAB <path>` NUL, `-` for both when git calls it binary).
 */
export function parseChanges(out: Buffer): ChangedFile[] {
  const text = out.toString('utf8');
  const parts = text.split('\0');
  const status = new Map<string, ChangedFile['status']>();
  const files: ChangedFile[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (!part) continue;
    if (part.startsWith(':')) {
      const letter = part.slice(part.lastIndexOf(' ') + 1, part.lastIndexOf(' ') + 2);
      status.set(parts[++i] ?? '', STATUS[letter] ?? 'modified');
      continue;
    }
    const m = /^(-|\d+)\t(-|\d+)\t([\s\S]*)$/.exec(part);
    if (!m) continue;
    const path = m[3]!;
    const binary = m[1] === '-';
    files.push({ path, status: status.get(path) ?? 'modified', added: binary ? 0 : Number(m[1]), removed: binary ? 0 : Number(m[2]), binary });
  }
  return files;
}
