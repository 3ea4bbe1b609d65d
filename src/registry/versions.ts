// Semantic version order for "update available": numeric major.minor.patch, then a release sorts
// after its pre-releases (1.0.0-rc.1 < 1.0.0), pre-release fields compared as semver says.
// Build metadata (+…) is ignored. No `vscode`.

function parse(v: string): { nums: number[]; pre: string[] } {
  const noBuild = v.split('+', 1)[0] ?? '';
  const dash = noBuild.indexOf('-');
  const core = dash < 0 ? noBuild : noBuild.slice(0, dash);
  const pre = dash < 0 ? [] : noBuild.slice(dash + 1).split('.');
  return {
    nums: core
      .split('.')
      .slice(0, 3)
      .map((n) => (/^\d{1,15}$/.test(n) ? Number(n) : 0)),
    pre,
  };
}

/** <0 when a is older than b, 0 when equal, >0 when newer. */
export function compareVersions(a: string, b: string): number {
  const x = parse(a),
    y = parse(b);
  for (let i = 0; i < 3; i++) {
    const d = (x.nums[i] ?? 0) - (y.nums[i] ?? 0);
    if (d !== 0) return d;
  }
  if (x.pre.length === 0 || y.pre.length === 0) return y.pre.length - x.pre.length;
  for (let i = 0; i < Math.max(x.pre.length, y.pre.length); i++) {
    const p = x.pre[i],
      q = y.pre[i];
    if (p === undefined) return -1;
    if (q === undefined) return 1;
    const pn = /^\d+$/.test(p),
      qn = /^\d+$/.test(q);
    if (pn && qn) {
      const d = Number(p) - Number(q);
      if (d !== 0) return d;
      continue;
    }
    if (pn !== qn) return pn ? -1 : 1;
    if (p !== q) return p < q ? -1 : 1;
  }
  return 0;
}
