// Parsers of git's machine-readable output (pure, unit tested).

export interface WorktreeEntry {
  readonly path: string;
  /** The commit checked out (absent in a bare entry). */
  readonly head?: string;
  /** The branch's short name (`refs/heads/` removed); absent when detached. */
  readonly branch?: string;
  readonly bare: boolean;
  readonly detached: boolean;
  /** git marks it prunable: its folder is gone. */
  readonly prunable: boolean;
  readonly locked: boolean;
}

/** `git worktree list --porcelain` (entries separated by blank lines; the first is the main tree). */
export function parseWorktreeList(text: string): WorktreeEntry[] {
  const out: WorktreeEntry[] = [];
  for (const block of text.replace(/\r\n/g, '\n').split(/\n\n+/)) {
    const lines = block.split('\n').filter((l) => l.length > 0);
    const first = lines[0];
    if (!first?.startsWith('worktree ')) continue;
    const value = (key: string): string | undefined => {
      const l = lines.find((x) => x === key || x.startsWith(`${key} `));
      return l === undefined ? undefined : l.slice(key.length + 1);
    };
    const branch = value('branch');
    const head = value('HEAD');
    out.push({
      path: first.slice('worktree '.length),
      ...(head ? { head } : {}),
      ...(branch ? { branch: branch.replace(/^refs\/heads\//, '') } : {}),
      bare: value('bare') !== undefined,
      detached: value('detached') !== undefined,
      prunable: value('prunable') !== undefined,
      locked: value('locked') !== undefined,
    });
  }
  return out;
}

/** The paths `git status --porcelain=v1 -z` lists (renames: the new path). */
export function parseStatusPaths(z: string): string[] {
  const parts = z.split('\0');
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const entry = parts[i]!;
    if (entry.length < 4) continue;
    out.push(entry.slice(3));
    if (entry[0] === 'R' || entry[0] === 'C') i++; // the original path follows
  }
  return out;
}

/** `git rev-list --left-right --count a...b`: "<left>\t<right>". */
export function parseAheadBehind(text: string): { behind: number; ahead: number } | undefined {
  const m = /^(\d+)\s+(\d+)/.exec(text.trim());
  return m ? { behind: Number(m[1]), ahead: Number(m[2]) } : undefined;
}

/** `git diff --name-status -z`: [status letter, path] pairs (renames: the new path). */
export function parseNameStatus(z: string): { status: string; path: string }[] {
  const parts = z.split('\0').filter((p) => p.length > 0);
  const out: { status: string; path: string }[] = [];
  for (let i = 0; i < parts.length; i++) {
    const status = parts[i]!;
    if (status.startsWith('R') || status.startsWith('C')) {
      out.push({ status: status[0]!, path: parts[i + 2] ?? '' });
      i += 2;
    } else {
      out.push({ status: status[0]!, path: parts[i + 1] ?? '' });
      i += 1;
    }
  }
  return out;
}
