// A checkpoint interval (the work index's) as the session history stores it, and back: paths
// relative to the workspace folder, statuses as one letter, so a busy session's log stays small.
import * as path from 'node:path';
import type { CheckpointInterval } from '../../state/attribution/workStore';
import type { CheckpointRecord } from './records';

const LETTER = { added: 'A', modified: 'M', deleted: 'D' } as const;
const STATUS = { A: 'added', M: 'modified', D: 'deleted' } as const;

export function recordOf(iv: CheckpointInterval): CheckpointRecord {
  return {
    folder: iv.folder,
    from: iv.from,
    to: iv.to,
    since: iv.since,
    owners: iv.owners.map((o) => (o.planId === undefined ? { key: o.key } : { planId: o.planId, key: o.key })),
    files: iv.files.map((f) => ({
      p: path.relative(iv.folder, f.path).split(path.sep).join('/'),
      s: LETTER[f.status],
      a: f.added,
      r: f.removed,
      ...(f.binary ? { b: 1 as const } : {}),
    })),
  };
}

/** The interval a stored record holds; a path that leaves its folder is dropped (a crafted log names no file outside it). */
export function intervalOf(r: CheckpointRecord): CheckpointInterval {
  const files: CheckpointInterval['files'][number][] = [];
  for (const f of r.files) {
    const abs = path.resolve(r.folder, f.p);
    if (abs === r.folder || !abs.startsWith(r.folder.endsWith(path.sep) ? r.folder : r.folder + path.sep)) continue;
    files.push({ path: abs, status: STATUS[f.s], added: f.a, removed: f.r, binary: f.b === 1 });
  }
  return { folder: r.folder, from: r.from, to: r.to, since: r.since, owners: r.owners, files };
}
