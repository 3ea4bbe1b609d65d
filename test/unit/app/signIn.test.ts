// SignIn without VS Code (SignInUi and the agents faked): after auth_required the user is asked;
// declining signs nothing in; an agent method goes through `authenticate`; a terminal method runs
// the agent's configured command (never one the agent names) with the method's checked arguments
// and variables (only allow-listed variables; anything else refused by name), after the user
// confirmed the exact command line, arguments and variables (secrets masked; Cancel runs nothing),
// and restarts the agent only when the terminal exits with 0.
import * as assert from 'node:assert/strict';
import { SignIn } from '../../../src/app/signIn';
import type { AuthMethod } from '../../../src/protocol/domain';
import { german } from '../l10n/german';
import { FakeAgent, FakeAgents, FakeConnection, FakeSignInUi, fakeLog, fakeWorkspace } from './fakeAgents';

const SECRET = 'acme-secret-value-0123456789';

describe('SignIn', () => {
  let log: ReturnType<typeof fakeLog>;
  let agents: FakeAgents;
  let agent: FakeAgent;
  let ui: FakeSignInUi;
  let restarted: string[];
  let signIn: SignIn;
  let workspace: ReturnType<typeof fakeWorkspace>;
  const agentMethod: AuthMethod = { id: 'oauth', name: 'Log in with the browser', type: 'agent', raw: {} };
  const terminalMethod: AuthMethod = {
    id: 'tty',
    name: 'Log in in a terminal',
    type: 'terminal',
    args: ['--login'],
    env: [
      { name: 'ACME_API_KEY', value: SECRET },
      { name: 'ACME_BASE_URL', value: 'https://login.acme.example/v1' },
      { name: 'ACME_REGION', value: 'eu-west-1' },
      { name: 'NO_BROWSER', value: '1' },
    ],
    // What the agent might say to run: never used.
    raw: { command: '/tmp/evil', args: ['--steal'] },
  };

  beforeEach(() => {
    agents = new FakeAgents();
    agent = agents.add(new FakeAgent('a', 'Agent A'));
    agent.setStatus('running');
    (agent.connection as FakeConnection).authMethods = [agentMethod, terminalMethod];
    ui = new FakeSignInUi();
    restarted = [];
    workspace = fakeWorkspace();
    log = fakeLog();
    signIn = new SignIn(agents, workspace, log, ui, (id) => Promise.resolve(void restarted.push(id)));
  });
  afterEach(() => signIn.dispose());

  it('after auth_required asks the user; declining signs nothing in and resolves false', async () => {
    ui.signIn = false;
    assert.equal(await signIn.afterAuthRequired('a', 'open a session', 'Authentication required'), false);
    assert.deepEqual(ui.asked, ['Agent A / open a session']);
    assert.deepEqual(agent.connection!.authenticated, []);
    assert.deepEqual(ui.terminals, []);
  });

  it("tells the user in the user's language (L10n)", async () => {
    const de = new SignIn(agents, workspace, log, ui, () => Promise.resolve(), german);
    ui.method = (ms) => ms.find((m) => m.type === 'agent');
    assert.equal(await de.signIn('a'), true);
    assert.deepEqual(ui.infos, ['Bei Agent A angemeldet.']);
    (agent.connection as FakeConnection).authMethods = [];
    assert.equal(await de.signIn('a'), false);
    assert.match(ui.errors[0]!, /^Agent A bietet keine Anmeldemethode an/);
    de.dispose();
  });

  it('accepting with an agent method calls authenticate(methodId) and resolves true', async () => {
    ui.method = (ms) => ms.find((m) => m.type === 'agent');
    assert.equal(await signIn.afterAuthRequired('a', 'open a session', 'Authentication required'), true);
    assert.deepEqual(agent.connection!.authenticated, ['oauth']);
    assert.deepEqual(ui.infos, ['Signed in to Agent A.']);
    assert.deepEqual(restarted, [], 'an agent method needs no restart');
  });

  it("a terminal method runs the agent's configured command with the method's arguments, then restarts the agent on exit 0", async () => {
    ui.method = (ms) => ms.find((m) => m.type === 'terminal');
    assert.equal(await signIn.signIn('a'), true);
    assert.deepEqual(ui.terminals, [
      {
        name: 'Sign in: Agent A',
        command: '/usr/bin/fake-agent',
        args: ['--acp', '--login'],
        env: {
          FAKE: '1',
          ACME_API_KEY: SECRET,
          ACME_BASE_URL: 'https://login.acme.example/v1',
          ACME_REGION: 'eu-west-1',
          NO_BROWSER: '1',
        },
        cwd: '/work/project',
      },
    ]);
    assert.deepEqual(restarted, ['a']);
    assert.equal(ui.terminalsClosed, 1, 'the terminal is disposed when it ends');
    assert.deepEqual(ui.infos, ['Signed in to Agent A; the agent restarted.']);
    assert.deepEqual(agent.connection!.authenticated, []);
  });

  it('a terminal that exits with another code (or is closed) signs nothing in and does not restart', async () => {
    ui.method = (ms) => ms.find((m) => m.type === 'terminal');
    ui.exitCode = 1;
    assert.equal(await signIn.signIn('a'), false);
    ui.exitCode = undefined;
    assert.equal(await signIn.signIn('a'), false);
    assert.deepEqual(restarted, []);
    assert.deepEqual(ui.errors, [
      'Signing in to Agent A in the terminal ended with exit code 1, so you are not signed in. Run "ACP: Sign In" to try again.',
      'Signing in to Agent A in the terminal was closed before it finished, so you are not signed in. Run "ACP: Sign In" to try again.',
    ]);
  });

  for (const [name, value] of [
    ['PYTHONUSERBASE', '/tmp/evil'],
    ['DOTNET_STARTUP_HOOKS', '/tmp/hook.dll'],
    ['NODE_OPTIONS', '--require /tmp/x.js'],
    ['LD_PRELOAD', '/tmp/x.so'],
    ['FOO', 'bar'],
  ] as const) {
    it(`refuses a method that sets ${name} (not a sign-in variable), naming it, and runs nothing`, async () => {
      ui.method = () => ({ ...terminalMethod, env: [{ name, value }] });
      assert.equal(await signIn.signIn('a'), false);
      assert.deepEqual(ui.terminals, []);
      assert.equal(ui.errors.length, 1);
      assert.match(ui.errors[0]!, /Agent A's sign-in method "Log in in a terminal" was not run\./);
      assert.ok(ui.errors[0]!.includes(name), ui.errors[0]);
      assert.ok(!ui.errors[0]!.includes(value), 'the value is not shown');
      assert.deepEqual(restarted, []);
    });
  }

  it('first shows the exact command line, each extra argument and each variable (secrets masked) for "Run in Terminal" / Cancel', async () => {
    ui.method = (ms) => ms.find((m) => m.type === 'terminal');
    assert.equal(await signIn.signIn('a'), true);
    assert.deepEqual(
      ui.confirmations.map((c) => ({ message: c.message, detail: c.detail })),
      [
        {
          message: `Run Agent A's sign-in "Log in in a terminal" in a terminal?`,
          detail: [
            "Command line (the agent's configured command, then the arguments the agent added):",
            '"/usr/bin/fake-agent" "--acp" "--login"',
            '',
            'Arguments added by the agent:',
            '  "--login"',
            '',
            'Variables set by the agent (secrets hidden):',
            '  ACME_API_KEY = (hidden)',
            '  ACME_BASE_URL = "https://login.acme.example/v1"',
            '  ACME_REGION = "eu-west-1"',
            '  NO_BROWSER = "1"',
            '',
            'Folder: /work/project',
          ].join('\n'),
        },
      ],
    );
  });

  it('Cancel on the confirmation runs nothing and resolves false', async () => {
    ui.method = (ms) => ms.find((m) => m.type === 'terminal');
    ui.confirmRun = false;
    assert.equal(await signIn.signIn('a'), false);
    assert.equal(ui.confirmations.length, 1);
    assert.deepEqual(ui.terminals, []);
    assert.deepEqual(restarted, []);
    assert.deepEqual(ui.errors, []);
    assert.ok(log.lines.some((l) => /cancelled; nothing ran/.test(l)));
  });

  it('never puts the value of a secret-shaped variable (or a token-looking one) on screen or in the log', async () => {
    const token = 'ghp_' + 'x'.repeat(36);
    ui.method = () => ({
      ...terminalMethod,
      env: [
        { name: 'ACME_API_KEY', value: SECRET },
        { name: 'ACME_TOKEN', value: 'short' },
        // An account value that is really a token is masked too.
        { name: 'ACME_ACCOUNT', value: token },
      ],
    });
    assert.equal(await signIn.signIn('a'), true);
    const everything = JSON.stringify([ui.confirmations, ui.errors, ui.infos, ui.asked, log.lines]);
    for (const v of [SECRET, 'short', token]) assert.ok(!everything.includes(v), `${v} was shown or logged`);
    assert.match(ui.confirmations[0]!.detail, /ACME_API_KEY = \(hidden\)\n {2}ACME_TOKEN = \(hidden\)\n {2}ACME_ACCOUNT = \(hidden\)/);
    assert.ok(log.lines.some((l) => l.includes('variables ACME_API_KEY, ACME_TOKEN, ACME_ACCOUNT')));
  });

  it('refuses variables a method may not set, and any terminal sign-in in an untrusted workspace', async () => {
    ui.method = () => ({ ...terminalMethod, env: [{ name: 'NODE_OPTIONS', value: '--require /tmp/x.js' }] });
    assert.equal(await signIn.signIn('a'), false);
    assert.deepEqual(ui.terminals, []);
    assert.match(ui.errors[0]!, /Agent A's sign-in method "Log in in a terminal" was not run\./);
    workspace.trusted = false;
    ui.method = (ms) => ms.find((m) => m.type === 'terminal');
    await assert.rejects(signIn.signIn('a'), /untrusted workspace/);
    assert.deepEqual(ui.terminals, []);
  });
});
