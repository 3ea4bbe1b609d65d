// Ranking of workspace paths for `@` mentions. Pure.

/** Paths matching `query` (case-insensitive), best first: file name prefix, file name, path. */
export function rankPaths(paths: string[], query: string, limit = 20): string[] {
  const q = query.toLowerCase();
  const scored: { p: string; s: number }[] = [];
  for (const p of paths) {
    const lower = p.toLowerCase();
    const name = lower.slice(lower.lastIndexOf('/') + 1);
    let s: number;
    if (!q) s = 3;
    else if (name.startsWith(q)) s = 0;
    else if (name.includes(q)) s = 1;
    else if (lower.includes(q)) s = 2;
    else continue;
    scored.push({ p, s });
  }
  scored.sort((a, b) => a.s - b.s || a.p.length - b.p.length || (a.p < b.p ? -1 : a.p > b.p ? 1 : 0));
  return scored.slice(0, limit).map((x) => x.p);
}
