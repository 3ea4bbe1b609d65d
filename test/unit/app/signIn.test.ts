// SignIn without VS Code (SignInUi and the agents faked): after auth_required the user is asked;
// declining signs nothing in; an agent method goes through `authenticate`; a terminal method runs
// the agent's configured command (never one the agent names) with the method's checked arguments
// and variables, and restarts the agent only when the terminal exits with 0.
import * as assert from 'node:assert/strict';
import { SignIn } from '../../../src/app/signIn';
import type { AuthMethod } from '../../../src/protocol/domain';
import { FakeAgent, FakeAgents, FakeConnection, FakeSignInUi, fakeLog, fakeWorkspace } from './fakeAgents';

describe('SignIn', () => {
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
    env: [{ name: 'LOGIN_REASON', value: 'terminal-auth' }],
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
    signIn = new SignIn(agents, workspace, fakeLog(), ui, (id) => Promise.resolve(void restarted.push(id)));
  });
  afterEach(() => signIn.dispose());

  it('after auth_required asks the user; declining signs nothing in and resolves false', async () => {
    ui.signIn = false;
    assert.equal(await signIn.afterAuthRequired('a', 'open a session', 'Authentication required'), false);
    assert.deepEqual(ui.asked, ['Agent A / open a session']);
    assert.deepEqual(agent.connection!.authenticated, []);
    assert.deepEqual(ui.terminals, []);
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
        env: { FAKE: '1', LOGIN_REASON: 'terminal-auth' },
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
