// Registry entries from test/fixtures/registry (see its README for their source).
import * as fs from 'fs';
import * as path from 'path';
import { parseRegistryEntry, type RegistryEntry } from '../../../src/registry/schema';

function findFixtures(from: string): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const p = path.join(dir, 'test/fixtures/registry');
    if (fs.existsSync(p)) return p;
    if (path.dirname(dir) === dir) return undefined;
  }
}

export const FIXTURES = findFixtures(__dirname) ?? findFixtures(process.cwd()) ?? 'test/fixtures/registry';

export function rawEntry(id: string): unknown {
  const file = path.join(FIXTURES, 'agents', `${id}.json`);
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8'));
  const synthetic = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'synthetic.json'), 'utf8')) as { id: string }[];
  const e = synthetic.find((x) => x.id === id);
  if (!e) throw new Error(`no fixture entry ${id}`);
  return e;
}

export function entry(id: string): RegistryEntry {
  const r = parseRegistryEntry(rawEntry(id));
  if ('reason' in r) throw new Error(`fixture ${id} does not parse: ${r.reason}`);
  return r.entry;
}

export function allSnapshotEntries(): unknown[] {
  return fs
    .readdirSync(path.join(FIXTURES, 'agents'))
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(FIXTURES, 'agents', f), 'utf8')));
}
