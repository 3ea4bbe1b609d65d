// The ACP Registry in the real VS Code, offline: the test serves a registry on 127.0.0.1 (plain
// http is allowed for loopback) whose binary entries are archives holding the scripted test agent
// (out/test/agents/scriptedAgent.js) and a launcher script. Add Agent from Registry… is driven
// through the workbench's own quick pick, confirmation dialog and progress notification; then Start
// Agent… shows the installed agent and a turn puts its plan in the tree. Update (with sign-in),
// a failed update that keeps the old version, Uninstall, and the bad inputs follow.
import * as assert from 'assert';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { api, waitFor, type TestApi } from './support/ext';
import { prompt, turnEnd, withSetting, type SessionRef } from './support/demo';
import { clearNotes, NOTES, toastWith } from './support/notifications';
import { hasUiHook, screenshot, uiClick, waitForUi } from './ui';
import { confirm, QUICK_ROWS } from './support/quickPick';
import { tarGz, type TarItem } from '../unit/registry/support/archives';
import { TestServer } from '../unit/registry/support/server';
import { platformKey } from '../../src/registry/platform';

const NAME = 'Scripted Registry Agent';
const ID = 'registry:scripted-agent';
const here = platformKey()!;
const other = here === 'linux-x86_64' ? 'windows-aarch64' : 'linux-x86_64';

/** The archive: bin/agent (a launcher) and agent.js (the scripted test agent), plus incompressible padding. */
async function agentArchive(mode: string, padding = 0): Promise<Buffer> {
  const items: TarItem[] = [
    { name: 'bin/agent', mode: 0o644, body: `#!/bin/sh\nexec "$ACP_TEST_NODE" "$(dirname "$0")/../agent.js" ${mode} "$@"\n` },
    { name: 'agent.js', body: fs.readFileSync(path.join(__dirname, '../agents/scriptedAgent.js')) },
  ];
  if (padding) items.push({ name: 'share/padding.bin', body: crypto.randomBytes(padding) });
  return tarGz(items);
}

const sha = (b: Buffer): string => crypto.createHash('sha256').update(b).digest('hex');

function binaryEntry(
  id: string,
  name: string,
  version: string,
  archive: string,
  extra: Record<string, unknown> = {},
  platform: string = here,
): Record<string, unknown> {
  return {
    id,
    name,
    version,
    description: `${name} for the registry test`,
    license: 'MIT',
    icon: './icons/agent.svg',
    distribution: { binary: { [platform]: { archive, cmd: './bin/agent', env: { ELECTRON_RUN_AS_NODE: '1', ACP_TEST_NODE: process.execPath }, ...extra } } },
  };
}

describe('ACP Registry: add, update, uninstall agents (real UI, offline)', function () {
  this.timeout(120000);
  let a: TestApi;
  let server: TestServer;
  let releaseDownload: () => void = () => undefined;
  let storage: string;
  const restore: (() => Promise<void>)[] = [];
  let ref: SessionRef | undefined;
  let archive1: Buffer;

  before(async function () {
    if (!hasUiHook()) this.skip();
    a = await api();
    // The extension's global storage (the Demo Agent's state folder sits in it).
    storage = path.dirname(a.internals.agents.get('demo')!.def.env.ACP_DEMO_STATE_DIR!);
    server = await new TestServer().start();
    const v1 = (archive1 = await agentArchive('v2', 512 * 1024));
    // Served in 16 slices, 100 ms apart; the second half only once the test has seen the progress
    // notification (releaseDownload), so a fast machine cannot finish before it is shown.
    let released = false;
    const release = new Promise<void>((resolve) => {
      releaseDownload = () => {
        released = true;
        resolve();
      };
    });
    server.routes.set('/scripted-agent-1.0.0.tar.gz', {
      handler: (_req, res) => {
        res.setHeader('content-length', String(v1.length));
        let i = 0;
        const step = Math.ceil(v1.length / 16);
        const next = (): void => {
          if (i >= v1.length) {
            res.end();
            return;
          }
          if (!released && i >= v1.length / 2) {
            void release.then(next);
            return;
          }
          res.write(v1.subarray(i, i + step));
          i += step;
          setTimeout(next, 100);
        };
        next();
      },
    });
    server.routes.set('/icons/agent.svg', {
      body: '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><circle cx="8" cy="8" r="7" fill="#3a7"/></svg>',
      headers: { 'content-type': 'image/svg+xml' },
    });
    const bad = {
      version: '1.0.0',
      extensions: [],
      agents: [
        binaryEntry('missing-archive', 'Missing Archive Agent', '1.0.0', server.url('/nothing.tar.gz')),
        binaryEntry('tampered-agent', 'Tampered Agent', '1.0.0', server.url('/tampered.tar.gz'), { sha256: 'f'.repeat(64) }),
        binaryEntry('escape-agent', 'Escape Agent', '1.0.0', server.url('/escape.tar.gz')),
        binaryEntry('huge-agent', 'Huge Agent', '1.0.0', server.url('/huge.bin')),
        binaryEntry('slow-agent', 'Slow Agent', '1.0.0', server.url('/slow.tar.gz')),
        binaryEntry('far-away-agent', 'Far Away Agent', '1.0.0', 'https://example.invalid/x.zip', {}, other),
      ],
    };
    server.routes.set('/bad.json', { body: JSON.stringify(bad) });
    server.routes.set('/tampered.tar.gz', { body: await agentArchive('v2') });
    server.routes.set('/escape.tar.gz', {
      body: await tarGz([
        { name: 'bin/agent', body: '#!/bin/sh\n' },
        { name: '../../escaped', body: 'x' },
      ]),
    });
    server.routes.set('/huge.bin', { body: Buffer.alloc(2 * 1024 * 1024 + 1) });
    server.routes.set('/slow.tar.gz', { body: Buffer.alloc(1024 * 1024), stallAfter: 64 * 1024 });
    server.routes.set('/broken.json', { body: '{"version": "1.0.0", "agents": [' });
    const index = {
      version: '1.0.0',
      extensions: [],
      agents: [
        binaryEntry('scripted-agent', NAME, '1.0.0', server.url('/scripted-agent-1.0.0.tar.gz'), { sha256: sha(v1) }),
        {
          id: 'npx-agent',
          name: 'NPX Sample Agent',
          version: '3.1.0',
          description: 'Runs with npx',
          license: 'Apache-2.0',
          distribution: { npx: { package: '@example/npx-agent@3.1.0', args: ['--acp'] } },
        },
        binaryEntry('far-away-agent', 'Far Away Agent', '1.0.0', 'https://example.invalid/x.zip', {}, other),
        { id: 'Bad Entry', name: 'Broken', version: 'one', description: '', distribution: {} },
      ],
    };
    server.routes.set('/registry.json', { body: JSON.stringify(index), headers: { etag: '"1"' } });
    restore.push(await withSetting('registry.url', server.url('/registry.json')));
    await vscode.commands.executeCommand('workbench.view.extension.acp');
  });

  // A failed step must not leave its quick pick open, nor the first download held, for the next one.
  afterEach(async () => {
    releaseDownload();
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  });

  after(async () => {
    if (!a) return;
    await clearNotes();
    for (const id of ['scripted-agent']) {
      if (a.internals.agents.get(`registry:${id}`)) {
        const p = vscode.commands.executeCommand('acp.uninstallAgent', `registry:${id}`);
        await confirm('Uninstall', 'Uninstall').catch(() => undefined);
        await p;
      }
    }
    for (const r of restore.reverse()) await r();
    await server?.stop();
  });

  it('Add Agent from Registry…: quick pick → confirm → progress; Start Agent… shows it; a turn puts its plan in the tree', async () => {
    await clearNotes(); // earlier suites' notifications: the list shows this test's alone
    const done = vscode.commands.executeCommand<string | undefined>('acp.addAgentFromRegistry');
    const rows = await waitForUi(QUICK_ROWS, (t) => t.some((x) => x.includes(NAME)) && t.some((x) => x.includes('Far Away Agent')));
    const row = (n: string): string => rows.find((x) => x.includes(n)) ?? '';
    assert.match(row(NAME), /v1\.0\.0 · MIT · binary/);
    assert.match(row('NPX Sample Agent'), /v3\.1\.0 · Apache-2\.0 · npx/);
    assert.match(row('Far Away Agent'), new RegExp(`unavailable here \\(${here}; builds for ${other}\\)`));
    assert.ok(!rows.some((x) => x.includes('Broken')), 'the invalid entry is not listed');
    await server.requested('/icons/agent.svg');
    await screenshot('registry-quick-pick');

    await uiClick(QUICK_ROWS, NAME);
    const dialog = await confirm(`Install ${NAME} 1.0.0 from the ACP Registry?`, 'Install, then run:', 'registry-confirm');
    const dir = path.join(storage, 'registry', 'agents', 'scripted-agent', '1.0.0');
    assert.ok(dialog.includes(`ACP_TEST_NODE=${process.execPath}`) && dialog.includes(path.join(dir, 'bin', 'agent')), dialog);
    assert.ok(dialog.includes(`${server.url('/scripted-agent-1.0.0.tar.gz')} (sha256 ${sha(archive1)})`), dialog);
    assert.ok(/License\s+MIT/.test(dialog), dialog);

    // Two halves, told apart when this fails: the install started (the archive was asked for), then its progress shows.
    const asked = server.requested('/scripted-agent-1.0.0.tar.gz').then(() => true);
    assert.ok(
      await Promise.race([asked, new Promise<false>((r) => setTimeout(() => r(false), 15000))]),
      'the install did not start: the archive was never requested',
    );
    assert.match(await toastWith(`Installing ${NAME} 1.0.0`), /downloading|unpacking/);
    await screenshot('registry-progress');
    releaseDownload();
    assert.strictEqual(await done, ID);
    assert.match(await toastWith('skipped'), /1 ACP Registry entry was skipped because it is invalid \("Bad Entry"\)/);
    await clearNotes();
    assert.strictEqual(a.internals.agents.get(ID)?.status, 'running');
    assert.ok((fs.statSync(path.join(dir, 'bin', 'agent')).mode & 0o111) !== 0, 'the launcher is executable');
    assert.deepStrictEqual(fs.readdirSync(path.join(storage, 'registry', 'tmp')), [], 'no temp folder left');
    assert.ok(
      a.agents().some((x) => x.id === ID && x.name === NAME),
      'listed by the public API',
    );

    // Start Agent… lists it beside the Demo Agent; picking it opens a session.
    const started = vscode.commands.executeCommand<SessionRef | undefined>('acp.startAgent');
    await waitForUi(QUICK_ROWS, (t) => t.some((x) => x.includes(NAME)) && t.some((x) => x.includes('Demo Agent')));
    await uiClick(QUICK_ROWS, NAME);
    ref = await started;
    assert.ok(ref && ref.agentId === ID, JSON.stringify(ref));
    await prompt(ref, 'Write the tests');
    assert.strictEqual(await turnEnd(a, ref), 'end_turn');
    const plans = a.plans({ agentId: ID, sessionId: ref.sessionId });
    assert.deepStrictEqual(
      plans.map((p) => p.planId),
      ['plan-1'],
    );
    const tree = a.internals.plansUi.tree;
    const agentNode = tree.getChildren().find((n) => n.kind === 'agent' && n.agentId === ID)!;
    assert.ok(agentNode, 'the agent is in the Plans tree');
    const sessionNode = tree.getChildren(agentNode)[0]!;
    const planNode = tree.getChildren(sessionNode).find((n) => n.kind === 'plan')!;
    assert.ok(planNode, 'its plan is in the tree');
    await a.internals.plansUi.treeView.reveal(planNode, { expand: true });
    await waitForUi('.part.sidebar .pane-body .monaco-list-row', (t) => t.some((x) => x.startsWith(NAME)) && t.some((x) => x.includes('Write tests')));
    await screenshot('registry-plan-in-tree');
  });

  it('Update: the new version is installed beside the old one, switched once it starts, and sign-in is offered', async () => {
    const v2 = await agentArchive('v1'); // a v1 agent that lists an auth method ("Log in")
    server.routes.set('/scripted-agent-1.1.0.tar.gz', { body: v2 });
    const index = JSON.parse(String(server.routes.get('/registry.json')!.body)) as { agents: Record<string, unknown>[] };
    index.agents[0] = binaryEntry('scripted-agent', NAME, '1.1.0', server.url('/scripted-agent-1.1.0.tar.gz'), { sha256: sha(v2) });
    server.routes.set('/registry.json', { body: JSON.stringify(index), headers: { etag: '"2"' } });

    await clearNotes();
    const done = vscode.commands.executeCommand<boolean>('acp.updateAgent', ID);
    const dialog = await confirm(`Update ${NAME} from 1.0.0 to 1.1.0?`, 'Update to 1.1.0');
    assert.ok(dialog.includes('1.0.0 is kept until 1.1.0 starts'), dialog);
    assert.strictEqual(await done, true);
    const agents = path.join(storage, 'registry', 'agents', 'scripted-agent');
    assert.deepStrictEqual(fs.readdirSync(agents), ['1.1.0'], 'the old version is removed once the new one runs');
    assert.strictEqual(a.internals.agents.get(ID)!.def.command, path.join(agents, '1.1.0', 'bin', 'agent'));
    assert.strictEqual(a.internals.agents.get(ID)!.status, 'running');

    // Sign-in right after: the agent lists "Log in" (agent auth through authenticate).
    await toastWith(`${NAME} is installed. It asks you to sign in (Log in).`);
    await uiClick(`${NOTES} .monaco-button`, 'Sign In');
    await clearNotes();
    await waitForUi(QUICK_ROWS, (t) => t.some((x) => x.includes('Log in')));
    await uiClick(QUICK_ROWS, 'Log in');
    await toastWith(`Signed in to ${NAME}.`);
    await clearNotes();
  });

  it('a failed update keeps the old version', async () => {
    const broken = await agentArchive('exit'); // exits when asked to initialize
    server.routes.set('/scripted-agent-1.2.0.tar.gz', { body: broken });
    const index = JSON.parse(String(server.routes.get('/registry.json')!.body)) as { agents: Record<string, unknown>[] };
    index.agents[0] = binaryEntry('scripted-agent', NAME, '1.2.0', server.url('/scripted-agent-1.2.0.tar.gz'));
    server.routes.set('/registry.json', { body: JSON.stringify(index), headers: { etag: '"3"' } });

    await clearNotes();
    const done = vscode.commands.executeCommand<boolean>('acp.updateAgent', ID);
    await confirm(`Update ${NAME} from 1.1.0 to 1.2.0?`, 'Update to 1.2.0');
    assert.strictEqual(await done, false);
    assert.match(await toastWith('so 1.1.0 is kept'), new RegExp(`${NAME} 1\\.2\\.0 did not start`));
    const agents = path.join(storage, 'registry', 'agents', 'scripted-agent');
    assert.deepStrictEqual(fs.readdirSync(agents), ['1.1.0']);
    assert.strictEqual(a.internals.agents.get(ID)!.def.command, path.join(agents, '1.1.0', 'bin', 'agent'));
    await waitFor(a.internals.store.onDidChange, () => a.internals.agents.get(ID)!.status === 'running', 20000, 'the old version running again');
  });

  it('Uninstall removes the agent and its files', async () => {
    const done = vscode.commands.executeCommand<boolean>('acp.uninstallAgent', ID);
    const rows = await confirm(`Uninstall ${NAME} 1.1.0?`, 'Uninstall');
    assert.ok(rows.includes('Its files are deleted'), rows);
    assert.strictEqual(await done, true);
    assert.strictEqual(a.internals.agents.get(ID), undefined);
    assert.ok(!fs.existsSync(path.join(storage, 'registry', 'agents', 'scripted-agent')));
    assert.ok(!a.agents().some((x) => x.id === ID));
  });

  describe('bad inputs: a clear message, nothing half-installed', () => {
    const nothingInstalled = (id: string): void => {
      assert.strictEqual(a.internals.agents.get(`registry:${id}`), undefined, `${id} is not an agent`);
      assert.ok(!fs.existsSync(path.join(storage, 'registry', 'agents', id)), `${id} has no folder`);
      assert.deepStrictEqual(fs.readdirSync(path.join(storage, 'registry', 'tmp')), [], 'no temp folder left');
    };
    beforeEach(clearNotes);
    const attempt = async (id: string, expected: RegExp, opts: { confirm?: boolean } = {}): Promise<void> => {
      const done = vscode.commands.executeCommand<string | undefined>('acp.addAgentFromRegistry', { id });
      if (opts.confirm !== false) await confirm('from the ACP Registry?', 'Install, then run:');
      assert.strictEqual(await done, undefined);
      await toastWith(expected);
      nothingInstalled(id);
    };

    it('index 404 and invalid JSON', async () => {
      const r = await withSetting('registry.url', server.url('/no-such-index.json'));
      try {
        assert.strictEqual(await vscode.commands.executeCommand('acp.addAgentFromRegistry'), undefined);
        await toastWith(/answered HTTP 404.*No copy of the registry is cached yet/);
        await vscode.workspace.getConfiguration('acp').update('registry.url', server.url('/broken.json'), vscode.ConfigurationTarget.Global);
        assert.strictEqual(await vscode.commands.executeCommand('acp.addAgentFromRegistry'), undefined);
        await toastWith(/did not send valid JSON/);
      } finally {
        await r();
      }
    });

    describe('archives', () => {
      let r: () => Promise<void>;
      let r2: () => Promise<void>;
      before(async () => {
        r = await withSetting('registry.url', server.url('/bad.json'));
        r2 = await withSetting('registry.maxDownloadMiB', 1);
      });
      after(async () => {
        await r2();
        await r();
      });

      it('archive 404', () => attempt('missing-archive', /nothing\.tar\.gz answered HTTP 404 Not Found; nothing was installed/));
      it('sha256 mismatch', () => attempt('tampered-agent', /does not match the registry's sha256/));
      it('an entry with ../ in the archive', () => attempt('escape-agent', /"\.\.\/\.\.\/escaped" goes up with "\.\."/));
      it('over the size cap', () => attempt('huge-agent', /over the 1\.0 MiB limit/));
      it('no build for this platform', () =>
        attempt('far-away-agent', new RegExp(`Far Away Agent 1\\.0\\.0 has no build for this machine \\(${here}\\); the registry has builds for ${other}`), {
          confirm: false,
        }));
      it('cancel during the download', async () => {
        const done = vscode.commands.executeCommand<string | undefined>('acp.addAgentFromRegistry', { id: 'slow-agent' });
        await confirm('from the ACP Registry?', 'Install, then run:');
        await toastWith('Installing Slow Agent 1.0.0');
        await uiClick(`${NOTES} .monaco-button`, 'Cancel');
        assert.strictEqual(await done, undefined);
        await toastWith('was cancelled; nothing was installed or changed');
        nothingInstalled('slow-agent');
      });
    });
  });
});
