// How many sessions one file (an imported session bundle, a replayed recording) may create: the
// first `max` session ids it names are admitted, every later one is refused, and the refused ones
// are counted (up to MAX_COUNTED, so the count itself stays bounded) to tell the user what was
// left out. Ids in a file are data: they never choose more sessions than this. Free of `vscode`.

import { english, type L10n } from './l10n';

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

  /** "The file names 200,001 sessions; only the first 100 were imported." (in `l10n`'s words) or undefined when none was refused. */
  summary(done: 'imported' | 'replayed', l10n: L10n = english): string | undefined {
    if (this.refused.size === 0) return undefined;
    const named = grouped(this.named);
    const max = grouped(this.max);
    if (this.refused.size >= MAX_COUNTED) {
      return done === 'imported'
        ? l10n.t('The file names {0} or more sessions; only the first {1} were imported.', named, max)
        : l10n.t('The file names {0} or more sessions; only the first {1} were replayed.', named, max);
    }
    return done === 'imported'
      ? l10n.t('The file names {0} sessions; only the first {1} were imported.', named, max)
      : l10n.t('The file names {0} sessions; only the first {1} were replayed.', named, max);
  }
}

function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
