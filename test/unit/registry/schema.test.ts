// The registry index: every entry of the snapshot validates; a bad entry is skipped with its
// position, id and reason; an unusable index is an error that says what is wrong.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseRegistryIndex, RegistryIndexError } from '../../../src/registry/schema';
import { allSnapshotEntries, rawEntry } from './fixtures';

const index = (agents: unknown[]): string => JSON.stringify({ version: '1.0.0', agents, extensions: [] });

describe('registry index validation', () => {
  it('accepts every entry of the registry snapshot', () => {
    const entries = allSnapshotEntries();
    const r = parseRegistryIndex(index(entries), 'test');
    assert.deepEqual(r.skipped, []);
    assert.equal(r.agents.length, entries.length);
    const codex = r.agents.find((a) => a.id === 'codex-acp')!;
    assert.deepEqual(Object.keys(codex.distribution.binary!).sort(), [
      'darwin-aarch64',
      'darwin-x86_64',
      'linux-aarch64',
      'linux-x86_64',
      'windows-aarch64',
      'windows-x86_64',
    ]);
  });

  it('skips a bad entry, reports position, id and reason, and keeps the others', () => {
    const bad = { ...(rawEntry('gemini') as object), id: 'Bad ID' };
    const noDist = { id: 'nodist', name: 'X', version: '1.0.0', description: 'd', distribution: {} };
    const badArchive = {
      id: 'badarch',
      name: 'X',
      version: '1.0.0',
      description: 'd',
      distribution: { binary: { 'linux-x86_64': { archive: 'not a url', cmd: './x' } } },
    };
    const badSha = {
      id: 'badsha',
      name: 'X',
      version: '1.0.0',
      description: 'd',
      distribution: { binary: { 'linux-x86_64': { archive: 'https://x.test/a.tgz', cmd: './x', sha256: 'abc' } } },
    };
    const optionPackage = { id: 'opt', name: 'X', version: '1.0.0', description: 'd', distribution: { npx: { package: '--yes=evil' } } };
    const r = parseRegistryIndex(index([rawEntry('auggie'), bad, noDist, 'text', badArchive, badSha, optionPackage, rawEntry('auggie')]), 'test');
    assert.deepEqual(
      r.agents.map((a) => a.id),
      ['auggie'],
    );
    assert.deepEqual(
      r.skipped.map((s) => [s.position, s.id]),
      [
        [2, 'Bad ID'],
        [3, 'nodist'],
        [4, undefined],
        [5, 'badarch'],
        [6, 'badsha'],
        [7, 'opt'],
        [8, 'auggie'],
      ],
    );
    assert.match(r.skipped[0]!.reason, /"id" must be lowercase/);
    assert.match(r.skipped[1]!.reason, /no binary, npx or uvx/);
    assert.match(r.skipped[3]!.reason, /distribution\.binary\.linux-x86_64: archive: is not a URL/);
    assert.match(r.skipped[4]!.reason, /sha256/);
    assert.match(r.skipped[5]!.reason, /not an option/);
    assert.match(r.skipped[6]!.reason, /listed twice/);
  });

  it('ignores unknown platform keys and fields added by later registry versions', () => {
    const e: Record<string, unknown> = { ...(rawEntry('kimi') as Record<string, unknown>), future: { x: 1 } };
    (e.distribution as Record<string, Record<string, unknown>>).binary!['plan9-mips'] = { nonsense: true };
    const r = parseRegistryIndex(JSON.stringify({ version: '2.0.0', agents: [e], extensions: [], newThing: [] }), 'test');
    assert.deepEqual(r.skipped, []);
    assert.ok(!('plan9-mips' in r.agents[0]!.distribution.binary!));
  });

  it('an unusable index is a clear error', () => {
    assert.throws(
      () => parseRegistryIndex('<html>oops</html>', 'https://r.test/registry.json'),
      (e: Error) => e instanceof RegistryIndexError && /did not send valid JSON/.test(e.message) && /acp\.registry\.url/.test(e.message),
    );
    assert.throws(() => parseRegistryIndex('[]', 'src'), /not a registry index/);
    assert.throws(() => parseRegistryIndex('{"version":"1.0.0"}', 'src'), /without an "agents" list/);
    assert.throws(() => parseRegistryIndex('null', 'src'), /not a registry index/);
  });

  it('never throws on arbitrary entries: each is kept or skipped', () => {
    fc.assert(
      fc.property(fc.array(fc.anything(), { maxLength: 20 }), (agents) => {
        const r = parseRegistryIndex(JSON.stringify({ version: '1.0.0', agents }), 'p');
        assert.equal(r.agents.length + r.skipped.length, agents.length);
      }),
      { numRuns: 200 },
    );
  });

  it('reads at most 2000 entries', () => {
    const many = Array.from({ length: 2005 }, (_, i) => ({ ...(rawEntry('gemini') as object), id: `a${i}` }));
    const r = parseRegistryIndex(index(many), 'p');
    assert.equal(r.agents.length, 2000);
    assert.match(r.skipped.at(-1)!.reason, /only the first 2000/);
  });
});
