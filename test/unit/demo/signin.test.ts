// The Demo Agent's sign-in mode (scenarios/signin.ts), paginated session/list and replay_complete.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { checkSignInEnv } from '../../../src/app/signInEnv';
import { AgentError, text } from './support/demoClient';
import { agentJs } from './support/paths';
import { cleanup, schemaCheck, start, startClient, tempDir } from './support/harness';

async function refused(p: Promise<unknown>): Promise<AgentError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(err instanceof AgentError, `expected an agent error, got ${String(err)}`);
  return err;
}

describe('Demo Agent sign-in mode, session pages, replay_complete', function () {
  this.timeout(30_000);
  before(() => schemaCheck());
  afterEach(cleanup);

  for (const version of [1, 2] as const) {
    it(`v${version}: lists a terminal method, answers auth_required until the --login run has signed in`, async () => {
      const marker = path.join(tempDir(), 'signed-in');
      const { client, init } = await startClient({ version, args: [`--signin=${marker}`] });
      const methods = init.authMethods as Record<string, unknown>[];
      assert.equal(methods.length, 1);
      assert.equal(methods[0].type, 'terminal');
      assert.deepEqual(methods[0].args, ['--login']);
      assert.equal(version === 1 ? methods[0].id : methods[0].methodId, 'demo-terminal-login');
      // Its variable is one a client's sign-in allow-list accepts.
      const env = version === 1 ? Object.entries(methods[0].env as object).map(([name, value]) => ({ name, value: String(value) })) : methods[0].env;
      assert.deepEqual(checkSignInEnv(env as { name: string; value: string }[]), [{ name: 'ACP_DEMO_ACCOUNT', value: 'demo', shown: '"demo"' }]);
      const cwd = tempDir();
      const err = await refused(client.request('session/new', version === 1 ? { cwd, mcpServers: [] } : { cwd }));
      assert.equal(err.error.code, -32000);
      // The terminal run: the same command with the method's arguments; exits 0 after signing in.
      const run = spawnSync(process.execPath, [agentJs(), `--signin=${marker}`, ...(methods[0].args as string[])], { encoding: 'utf8' });
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stdout, /Signed in\./);
      assert.ok(existsSync(marker));
      const ok = (await client.request('session/new', version === 1 ? { cwd, mcpServers: [] } : { cwd })) as { sessionId: string };
      assert.ok(ok.sessionId);
      assert.deepEqual(client.problems, [], client.problems.join('\n'));
    });
  }

  it('without --signin it lists no auth methods and needs no sign-in; --login alone says so and fails', async () => {
    const { init } = await startClient({ version: 2 });
    assert.deepEqual(init.authMethods, []);
    const run = spawnSync(process.execPath, [agentJs(), '--login'], { encoding: 'utf8' });
    assert.equal(run.status, 1);
    assert.match(run.stdout, /not started in sign-in mode/);
  });

  it('session/list pages by 20 with nextCursor; a bad cursor is invalid params', async () => {
    const s = await start({ version: 2 });
    for (let i = 0; i < 24; i++) await s.client.request('session/new', { cwd: s.cwd });
    const p1 = (await s.client.request('session/list', {})) as { sessions: unknown[]; nextCursor?: string };
    assert.equal(p1.sessions.length, 20);
    assert.equal(typeof p1.nextCursor, 'string');
    const p2 = (await s.client.request('session/list', { cursor: p1.nextCursor })) as { sessions: unknown[]; nextCursor?: string };
    assert.equal(p2.sessions.length, 5);
    assert.equal(p2.nextCursor, undefined);
    assert.equal((await refused(s.client.request('session/list', { cursor: 'nope' }))).error.code, -32602);
  });

  it('v2: a resume with replayFrom ends its replay with replay_complete, before the state snapshot and the answer', async () => {
    const s = await start({ version: 2 });
    const from = s.client.received.length;
    await s.client.request('session/prompt', { sessionId: s.sessionId, prompt: [text('/signin')] });
    await s.client.waitFor((m) => (m.params as { update?: { stopReason?: unknown } } | undefined)?.update?.stopReason !== undefined, from);
    const before = s.client.received.length;
    await s.client.request('session/resume', { sessionId: s.sessionId, cwd: s.cwd, replayFrom: { type: 'start' } });
    const kinds = s.client.updates(before).map((u) => String(u.sessionUpdate));
    const i = kinds.indexOf('replay_complete');
    assert.ok(i > 0, kinds.join(','));
    assert.ok(kinds.slice(0, i).includes('agent_message_chunk') || kinds.slice(0, i).includes('agent_message'), 'the history comes first');
    assert.equal(kinds[i + 1], 'state_update');
  });
});
