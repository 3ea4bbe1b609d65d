// The quick pick's view of each entry, the version order behind "update available", and the
// installed agents as definitions (with the user's overrides).
import assert from 'node:assert/strict';
import { entryViews } from '../../../src/registry/items';
import { compareVersions } from '../../../src/registry/versions';
import { installedDefinitions, type InstalledAgentRecord } from '../../../src/agents/installedDefinitions';
import { entry } from './fixtures';

const rec = (id: string, version: string, extra: Partial<InstalledAgentRecord> = {}): InstalledAgentRecord => ({
  id,
  name: id,
  version,
  kind: 'npx',
  command: 'npx',
  args: ['-y', id],
  env: { A: '1' },
  source: id,
  registryUrl: 'r',
  installedAt: 0,
  ...extra,
});

describe('registry quick pick entries', () => {
  it('marks installed and updatable entries, lists unavailable ones last, shows license and distributions', () => {
    const views = entryViews([entry('mainframe-agent'), entry('gemini'), entry('codex-acp'), entry('kimi'), entry('auggie')], 'linux-x86_64', [
      rec('gemini', '0.27.3'),
      rec('codex-acp', '0.9.1'),
    ]);
    assert.deepEqual(
      views.map((v) => [v.entry.id, v.state]),
      [
        ['gemini', 'installed'],
        ['codex-acp', 'update'],
        ['kimi', 'new'],
        ['auggie', 'new'],
        ['mainframe-agent', 'unavailable'],
      ],
    );
    assert.equal(views[0]!.description, 'installed 0.27.3 · v0.27.3 · Apache-2.0 · npx');
    assert.equal(views[1]!.description, 'update available (installed 0.9.1) · v0.9.2 · Apache-2.0 · binary');
    assert.equal(views[3]!.description, 'v0.15.0 · proprietary · npx');
    assert.equal(views[4]!.description, 'v0.0.1 · license not stated · unavailable here (linux-x86_64; builds for windows-aarch64)');
    assert.equal(views[2]!.detail, "Moonshot AI's coding assistant");
  });

  it('an entry with builds for other platforms only is unavailable on this one', () => {
    const [v] = entryViews([entry('kimi')], 'windows-aarch64', []);
    assert.equal(v!.state, 'unavailable');
    assert.match(v!.description, /builds for darwin-aarch64, linux-aarch64, linux-x86_64, windows-x86_64/);
  });
});

describe('registry versions', () => {
  it('orders semantic versions', () => {
    const sorted = ['1.10.0', '1.2.0', '1.2.0-rc.2', '1.2.0-rc.10', '1.2.0-alpha', '0.9.9', '1.2.0+build.5', '2.0.0-beta.1'];
    sorted.sort(compareVersions);
    assert.deepEqual(sorted, ['0.9.9', '1.2.0-alpha', '1.2.0-rc.2', '1.2.0-rc.10', '1.2.0', '1.2.0+build.5', '1.10.0', '2.0.0-beta.1']);
    assert.equal(compareVersions('0.9.2', '0.9.2'), 0);
    assert.ok(compareVersions('0.10.0', '0.9.2') > 0);
  });
});

describe('installed registry agents as definitions', () => {
  it('uses the registry name, args and env; overrides replace args and add env', () => {
    const r = installedDefinitions(
      [rec('gemini', '1.0.0', { name: 'Gemini CLI' }), rec('auggie', '1.0.0')],
      { gemini: { args: ['--x'], env: { B: '2' } } },
      true,
    );
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.agents[0], {
      id: 'registry:gemini',
      name: 'Gemini CLI',
      command: 'npx',
      args: ['--x'],
      env: { A: '1', B: '2' },
      protocol: 'auto',
      builtIn: false,
    });
    assert.deepEqual(r.agents[1]!.args, ['-y', 'auggie']);
  });

  it('a malformed override is reported and ignored; v2 off pins v1', () => {
    const r = installedDefinitions([rec('gemini', '1.0.0')], { gemini: { args: 'not a list' } }, false);
    assert.match(r.problems[0]!, /"gemini" is ignored/);
    assert.deepEqual(r.agents[0]!.args, ['-y', 'gemini']);
    assert.equal(r.agents[0]!.protocol, 1);
  });
});
