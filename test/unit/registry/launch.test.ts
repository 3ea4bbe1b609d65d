// Command lines of registry entries, checked against the forms the registry documents:
//   npx <package> [args]  |  npx --package <package> <cmd> [args]   (we add -y: no prompt on the agent's stdin)
//   uvx <package> [args]  |  uvx --from <package> <cmd> [args]
//   binary: <install folder>/<cmd> [args], env from the entry
import assert from 'node:assert/strict';
import * as path from 'path';
import { availableKinds, binaryLaunch, commandLine, packageLaunch, quoteArg } from '../../../src/registry/launch';
import { planInstall, plansFor } from '../../../src/registry/plan';
import { entry } from './fixtures';

describe('registry launch commands', () => {
  it('npx without cmd: npx -y <package> [args] (gemini, from the registry snapshot)', () => {
    const e = entry('gemini');
    const l = packageLaunch('npx', e.distribution.npx!);
    assert.deepEqual(l, { command: 'npx', args: ['-y', '@google/gemini-cli@0.27.3', '--experimental-acp'], env: {} });
    assert.equal(commandLine(l), 'npx -y @google/gemini-cli@0.27.3 --experimental-acp');
  });

  it("npx with env: the entry's variables go to the agent (auggie)", () => {
    const l = packageLaunch('npx', entry('auggie').distribution.npx!);
    assert.deepEqual(l.args, ['-y', '@augmentcode/auggie@0.15.0', '--acp']);
    assert.deepEqual(l.env, { AUGMENT_DISABLE_AUTO_UPDATE: '1' });
    assert.equal(commandLine(l), 'AUGMENT_DISABLE_AUTO_UPDATE=1 npx -y @augmentcode/auggie@0.15.0 --acp');
  });

  it('npx without args: just the package (claude-code-acp)', () => {
    assert.deepEqual(packageLaunch('npx', entry('claude-code-acp').distribution.npx!).args, ['-y', '@zed-industries/claude-code-acp@0.16.0']);
  });

  it('npx with cmd: npx -y --package <package> <cmd> [args], arguments kept whole', () => {
    const l = packageLaunch('npx', entry('npx-cmd-agent').distribution.npx!);
    assert.deepEqual(l.args, ['-y', '--package', '@example/agent-tools@2.0.0', 'agent-acp', '--acp', '--log level']);
    assert.equal(commandLine(l), `EXAMPLE_TOKEN_FILE='/tmp/it'\\''s here' npx -y --package @example/agent-tools@2.0.0 agent-acp --acp '--log level'`);
  });

  it('uvx without cmd: uvx <package> [args]', () => {
    const l = packageLaunch('uvx', entry('uv-agent').distribution.uvx!);
    assert.deepEqual(l, { command: 'uvx', args: ['uv-agent==1.2.0', 'acp'], env: { UV_AGENT_MODE: 'acp' } });
  });

  it('uvx with cmd: uvx --from <package> <cmd> [args]', () => {
    const l = packageLaunch('uvx', entry('uv-agent-cmd').distribution.uvx!);
    assert.deepEqual(l.args, ['--from', 'uv-tools@0.3.1', 'uv-agent-acp', '--stdio']);
    assert.equal(commandLine(l), 'uvx --from uv-tools@0.3.1 uv-agent-acp --stdio');
  });

  it("binary: the cmd inside the install folder, with the entry's args and env (factory-droid)", () => {
    const e = entry('factory-droid');
    const dir = path.join('/storage', 'registry', 'agents', 'factory-droid', '0.56.3');
    const l = binaryLaunch(e.distribution.binary!['linux-x86_64']!, dir);
    assert.equal(l.command, path.join(dir, 'droid'));
    assert.deepEqual(l.args, ['exec', '--output-format', 'acp']);
    assert.deepEqual(l.env, { DROID_DISABLE_AUTO_UPDATE: 'true', FACTORY_DROID_AUTO_UPDATE_ENABLED: 'false' });
    const plan = planInstall(e, 'binary', 'linux-x86_64', '/storage/registry');
    assert.equal(plan.installDir, dir);
    assert.equal(
      plan.commandLine,
      `DROID_DISABLE_AUTO_UPDATE=true FACTORY_DROID_AUTO_UPDATE_ENABLED=false ${path.join(dir, 'droid')} exec --output-format acp`,
    );
    assert.match(plan.source, /^https:\/\/downloads\.factory\.ai\/factory-cli\/releases\/0\.56\.3\/droid-linux-x86_64\.tar\.gz$/);
    assert.equal(plan.license, 'proprietary');
  });

  it('a binary cmd that leaves the install folder is refused', () => {
    for (const cmd of ['../escape', '/usr/bin/env', 'bin/../../x', 'C:\\evil.exe', '.']) {
      assert.throws(() => binaryLaunch({ archive: 'https://x.test/a.tgz', cmd }, '/storage/a'), /absolute|goes up|backslash|names no file/, cmd);
    }
  });

  it('only distributions that can run here are offered, binary first', () => {
    assert.deepEqual(availableKinds(entry('kimi'), 'linux-x86_64'), ['binary']);
    assert.deepEqual(availableKinds(entry('kimi'), 'windows-aarch64'), []);
    assert.deepEqual(availableKinds(entry('gemini'), undefined), ['npx']);
    assert.deepEqual(plansFor(entry('mainframe-agent'), 'linux-x86_64', '/s'), []);
    assert.deepEqual(
      plansFor(entry('uv-agent'), 'linux-x86_64', '/s').map((p) => p.source),
      ['Python package uv-agent==1.2.0 (fetched by uvx from PyPI)'],
    );
  });

  it('quotes for a POSIX shell exactly when needed', () => {
    assert.equal(quoteArg('plain-arg_1.0@x/y:z'), 'plain-arg_1.0@x/y:z');
    assert.equal(quoteArg(''), `''`);
    assert.equal(quoteArg('a b'), `'a b'`);
    assert.equal(quoteArg(`it's`), `'it'\\''s'`);
    assert.equal(quoteArg('$(rm -rf ~)'), `'$(rm -rf ~)'`);
  });
});
