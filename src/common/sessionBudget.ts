// How many sessions one file (an imported session bundle, a replayed recording) may create: the
// first `max` session ids it names are admitted, every later one is refused, and the refused ones
// are counted (up to MAX_COUNTED, so the count itself stays bounded) to tell the user what was
// left out. Ids in a file are data: they never choose more sessions than this. Free of `vscode`.

/** Sessions one imported or replayed file may create. */
export const MAX_SESSIONS_PER_FILE = 100;
/** Refused ids remembered for the count (a 64 MiB file cannot name many more). */
const MAX_COUNTED = 2_000_000;

export class SessionBudget {
  private readonly admitted = new Set<string>();
  private readonly refused = new Set<string>();

  constructor(readonly max = MAX_SESSIONS_PER_FILE) {}

  /** Whether `id` is one of the sessions this file may create (the first `max` it names). */
  admit(id: string): boolean {
    if (this.admitted.has(id)) return true;
    if (this.admitted.size < this.max) {
      this.admitted.add(id);
      return true;
    }
    if (this.refused.size < MAX_COUNTED) this.refused.add(id);
    return false;
  }

  /** Whether `id` was admitted (never admits it). */
  has(id: string): boolean {
    return this.admitted.has(id);
  }

  /** Sessions the file named so far. */
  get named(): number {
    return this.admitted.size + this.refused.size;
  }

  /** "The file names 200,001 sessions; only the first 100 were imported." or undefined when none was refused. */
  summary(done: string): string | undefined {
    if (this.refused.size === 0) return undefined;
    const more = this.refused.size >= MAX_COUNTED ? ' or more' : '';
    return `The file names ${grouped(this.named)}${more} sessions; only the first ${grouped(this.max)} were ${done}.`;
  }
}

function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
