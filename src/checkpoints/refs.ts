// Where checkpoints are kept: each under a ref of its own, refs/checkpoints/<tag key>/<sequence>,
// with no parent, so pruning the oldest frees what only they held. The tag (a session key: any
// string) becomes a fixed-length hash; the sequence is the time in milliseconds, kept strictly
// increasing across the repository, so sorting by it orders checkpoints oldest first across tags.
import { createHash } from 'node:crypto';

export const REF_PREFIX = 'refs/checkpoints/';

/** The ref-safe key of a tag: 40 hex digits of its SHA-256. */
export function tagKey(tag: string): string {
  return createHash('sha256').update(tag, 'utf8').digest('hex').slice(0, 40);
}

export function refName(key: string, seq: number): string {
  return `${REF_PREFIX}${key}/${String(seq).padStart(16, '0')}`;
}

function parseRef(ref: string): { key: string; seq: number } | undefined {
  const m = /^refs\/checkpoints\/([0-9a-f]{40})\/(\d{16})$/.exec(ref);
  return m ? { key: m[1]!, seq: Number(m[2]) } : undefined;
}

/** A checkpoint id as git prints it (SHA-1 or SHA-256). */
export function isObjectId(id: string): boolean {
  return /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(id);
}

interface Entry {
  readonly ref: string;
  readonly key: string;
  readonly seq: number;
  readonly id: string;
}

/** The checkpoint refs of one repository, in memory (read once at open, then kept in step). */
export class CheckpointRefs {
  private readonly byRef = new Map<string, Entry>();
  private readonly refCount = new Map<string, number>();
  private lastSeq = 0;

  /** Reads `for-each-ref --format='%(objectname) %(refname)'` output; ignores refs not of our shape. */
  load(text: string): void {
    for (const line of text.split('\n')) {
      const [id, ref] = line.trim().split(' ');
      if (id && ref) this.add(ref, id);
    }
  }

  get size(): number {
    return this.byRef.size;
  }

  /** A sequence number for a new checkpoint: now, or one past the last if that is not later. */
  nextSeq(now: number): number {
    this.lastSeq = Math.max(now, this.lastSeq + 1);
    return this.lastSeq;
  }

  add(ref: string, id: string): void {
    const parsed = parseRef(ref);
    if (!parsed || this.byRef.has(ref)) return;
    this.byRef.set(ref, { ref, key: parsed.key, seq: parsed.seq, id });
    this.refCount.set(id, (this.refCount.get(id) ?? 0) + 1);
    this.lastSeq = Math.max(this.lastSeq, parsed.seq);
  }

  delete(ref: string): void {
    const e = this.byRef.get(ref);
    if (!e) return;
    this.byRef.delete(ref);
    const n = (this.refCount.get(e.id) ?? 1) - 1;
    if (n > 0) this.refCount.set(e.id, n);
    else this.refCount.delete(e.id);
  }

  has(id: string): boolean {
    return this.refCount.has(id);
  }

  ofTag(key: string): string[] {
    return [...this.byRef.values()].filter((e) => e.key === key).map((e) => e.ref);
  }

  /** Every ref, oldest checkpoint first. */
  oldestFirst(): string[] {
    return [...this.byRef.values()].sort((a, b) => a.seq - b.seq || (a.ref < b.ref ? -1 : 1)).map((e) => e.ref);
  }
}
