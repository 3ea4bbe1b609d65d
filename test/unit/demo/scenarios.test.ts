// The Demo Agent's slash-command scenarios and version negotiation, over real pipes.

import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLIENT_INFO, text } from './support/demoClient';
import { answerPermissions, cleanup, isIdleWithStop, schemaCheck, start, startClient, statuses, tempDir, type Started } from './support/harness';

type Update = Record<string, unknown>;

async function turnV2(s: Started, prompt: string): Promise<Update[]> {
  const from = s.client.received.length;
  assert.deepEqual(await s.client.request('session/prompt', { sessionId: s.sessionId, prompt: [text(prompt)] }), {});
  const idle = await s.client.waitFor(isIdleWithStop, from);
  assert.equal((idle.params as { update: Update }).update.stopReason, 'end_turn');
  return s.client.updates(from);
}

async function turnV1(s: Started, prompt: string): Promise<Update[]> {
  const from = s.client.received.length;
  assert.deepEqual(await s.client.request('session/prompt', { sessionId: s.sessionId, prompt: [text(prompt)] }), { stopReason: 'end_turn' });
  return s.client.updates(from);
}

function said(updates: Update[]): string[] {
  const byId = new Map<string, string>();
  const order: string[] = [];
  updates
    .filter((u) => u.sessionUpdate === 'agent_message_chunk')
    .forEach((u, k) => {
      const id = (u.messageId as string | undefined) ?? `#${k}`;
      if (!byId.has(id)) order.push(id);
      byId.set(id, (byId.get(id) ?? '') + (u.content as { text: string }).text);
    });
  return order.map((id) => byId.get(id) as string);
}

function assertValid(s: Started): void {
  assert.deepEqual(s.client.problems, [], s.client.problems.join('\n'));
}

describe('Demo Agent scenarios', function () {
  this.timeout(30_000);
  before(() => schemaCheck());
  afterEach(cleanup);

  it('announces the commands after session/new', async () => {
    const s = await start({ version: 2 });
    const u = await s.client.waitFor((m) => (m.params as { update?: Update })?.update?.sessionUpdate === 'available_commands_update');
    const names = (u.params as { update: { availableCommands: { name: string }[] } }).update.availableCommands.map((c) => c.name);
    assert.deepEqual(names, [
      'fs',
      'terminal',
      'vterm',
      'permission',
      'command-permission',
      'crash',
      'slow',
      'burst',
      'intent',
      'pixel',
      'workload',
      'elicitation',
      'longplan',
      'declare',
      'subagents',
      'background',
      'planmode',
      'signin',
      'team',
      'compact',
      'steer',
    ]);
    assertValid(s);
  });

  describe('/permission', () => {
    for (const [version, optionId] of [
      [2, 'allow_always'],
      [2, 'cancelled'],
      [1, 'reject_once'],
      [1, 'cancelled'],
    ] as const) {
      it(`v${version}: echoes "${optionId}"`, async () => {
        const s = await start({ version });
        const seen = answerPermissions(s.client, optionId);
        const updates = version === 2 ? await turnV2(s, '/permission') : await turnV1(s, '/permission');
        assert.equal(seen.length, 1);
        if (version === 2) {
          assert.equal(seen[0].subject, undefined);
          assert.equal(typeof seen[0].title, 'string');
        } else {
          assert.equal((seen[0].toolCall as Update).toolCallId, (updates.find((u) => u.sessionUpdate === 'tool_call') as Update).toolCallId);
        }
        assert.deepEqual(
          (seen[0].options as { optionId: string }[]).map((o) => o.optionId),
          ['allow_once', 'allow_always', 'reject_once', 'reject_always'],
        );
        assert.deepEqual(said(updates), [optionId === 'cancelled' ? 'permission: cancelled' : `permission: selected ${optionId}`]);
        assertValid(s);
      });
    }
  });

  it('/command-permission (v2): a command subject for a pending execute call', async () => {
    const s = await start({ version: 2 });
    const seen = answerPermissions(s.client, 'allow_once');
    const updates = await turnV2(s, '/command-permission');
    const subject = seen[0].subject as Update;
    const call = updates.find((u) => u.sessionUpdate === 'tool_call_update') as Update;
    assert.deepEqual(subject, { type: 'command', command: 'npm test', cwd: s.cwd, toolCallId: call.toolCallId });
    assert.deepEqual(said(updates), ['permission: selected allow_once']);
    assertValid(s);
  });

  it('/burst 300 (v2): 300 updates of one plan, the last all completed', async () => {
    const s = await start({ version: 2 });
    const updates = await turnV2(s, '/burst 300');
    const plans = updates.filter((u) => u.sessionUpdate === 'plan_update').map((u) => u.plan as Update);
    assert.equal(plans.length, 300);
    assert.ok(plans.every((p) => p.planId === 'burst' && p.type === 'items'));
    assert.deepEqual(statuses(plans[0]), ['in_progress', 'pending', 'pending', 'pending', 'pending']);
    assert.deepEqual(statuses(plans[299]), Array(5).fill('completed'));
    assert.deepEqual(said(updates), ['burst: sent 300 plan updates']);
    assertValid(s);
  });

  it('/pixel plan 40 400 (v2): 40 stamped plan updates on schedule; /pixel chunk: stamped chunks of one message', async () => {
    const s = await start({ version: 2 });
    const t0 = performance.timeOrigin + performance.now();
    const updates = await turnV2(s, '/pixel plan 40 400');
    const ticks = updates
      .filter((u) => u.sessionUpdate === 'plan_update')
      .map((u) => String((u.plan as { entries: { content: string }[] }).entries[0].content));
    assert.equal(ticks.length, 40);
    const stamps = ticks.map((t, i) => {
      const m = /^tick (\d+) @(\d+\.\d)$/.exec(t);
      assert.ok(m && Number(m[1]) === i + 1, t);
      return Number(m[2]);
    });
    assert.ok(
      stamps.every((x, i) => x >= t0 && (i === 0 || x >= stamps[i - 1])),
      'send times increase from the prompt on',
    );
    // 40 updates at 400/s are due over 97.5 ms: the last is not sent before its time.
    assert.ok(stamps[39] - stamps[0] >= 95, `spread ${stamps[39] - stamps[0]} ms`);
    assert.deepEqual(said(updates).slice(-1), ['pixel: sent 40 plan updates at 400/s']);
    const chunks = (await turnV2(s, '/pixel chunk 5 1000')).filter((u) => u.sessionUpdate === 'agent_message_chunk');
    assert.equal(new Set(chunks.map((u) => u.messageId)).size, 2, 'the stamped chunks share one message; the summary is another');
    assert.match(String((chunks[4].content as { text: string }).text), /^‹5@\d+\.\d› $/);
    // A label marks one session's stamps (the ten-agent bench tells the active session's apart).
    const labelled = await turnV2(s, '/pixel mixed 2 1000 a');
    const texts = labelled.map((u) =>
      u.sessionUpdate === 'plan_update'
        ? String((u.plan as { entries: { content: string }[] }).entries[0].content)
        : u.sessionUpdate === 'agent_message_chunk'
          ? String((u.content as { text: string }).text)
          : '',
    );
    assert.ok(
      texts.some((t) => /^tick a2 @\d+\.\d$/.test(t)),
      JSON.stringify(texts),
    );
    assert.ok(
      texts.some((t) => /^‹a4@\d+\.\d› $/.test(t)),
      JSON.stringify(texts),
    );
    assert.ok(
      !(await turnV2(s, '/pixel plan 1 1000 A1')).some(
        (u) => u.sessionUpdate === 'plan_update' && !/^tick 1 @/.test(String((u.plan as { entries: { content: string }[] }).entries[0].content)),
      ),
      'a label that is not 1–8 lower-case letters is ignored',
    );
    assertValid(s);
  });

  it('/burst (v1, no opt-in): v1 plan updates', async () => {
    const s = await start({ version: 1, schemas: () => ['v1.unstable', 'v1'] });
    const updates = await turnV1(s, '/burst 7');
    const plans = updates.filter((u) => u.sessionUpdate === 'plan');
    assert.equal(plans.length, 7);
    assert.deepEqual(statuses(plans[6]), Array(5).fill('completed'));
    assertValid(s);
  });

  it('/fs (v1): reads through the client, echoes the content, writes the upper-case copy', async () => {
    const s = await start({ version: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } } });
    const requests: Update[] = [];
    s.client.onAgentRequest = (m) => {
      requests.push({ method: m.method, ...(m.params as Update) });
      if (m.method === 'fs/read_text_file') return { content: 'unsaved ✓ buffer\n' };
      if (m.method === 'fs/write_text_file') return {};
      throw new Error(`unexpected ${m.method}`);
    };
    const updates = await turnV1(s, '/fs notes/todo.md');
    const file = path.join(s.cwd, 'notes', 'todo.md');
    assert.deepEqual(requests, [
      { method: 'fs/read_text_file', sessionId: s.sessionId, path: file },
      { method: 'fs/write_text_file', sessionId: s.sessionId, path: `${file}.out`, content: 'UNSAVED ✓ BUFFER\n' },
    ]);
    const [echo, wrote] = said(updates);
    assert.ok(echo.includes('unsaved ✓ buffer'));
    assert.match(wrote, /^Wrote `notes\/todo\.md\.out`/);
    assertValid(s);
  });

  it('/fs (v2): reads and writes the disk itself', async () => {
    const s = await start({ version: 2 });
    writeFileSync(path.join(s.cwd, 'a.txt'), 'hello\n');
    const updates = await turnV2(s, '/fs a.txt');
    assert.equal(readFileSync(path.join(s.cwd, 'a.txt.out'), 'utf8'), 'HELLO\n');
    assert.ok(said(updates)[0].includes('hello'));
    assertValid(s);
  });

  it('/terminal (v1): create, output, wait_for_exit, output, release; reports output and exit code', async () => {
    const s = await start({ version: 1, clientCapabilities: { terminal: true } });
    const methods: string[] = [];
    s.client.onAgentRequest = (m) => {
      methods.push(m.method as string);
      const p = m.params as Update;
      switch (m.method) {
        case 'terminal/create':
          assert.deepEqual(p, { sessionId: s.sessionId, command: 'echo hi && exit 2', cwd: s.cwd, outputByteLimit: 65536 });
          return { terminalId: 't1' };
        case 'terminal/output':
          return { output: 'hi\n', truncated: false };
        case 'terminal/wait_for_exit':
          return { exitCode: 2, signal: null };
        case 'terminal/release':
          return {};
        default:
          throw new Error(`unexpected ${m.method}`);
      }
    };
    const updates = await turnV1(s, '/terminal echo hi && exit 2');
    assert.deepEqual(methods, ['terminal/create', 'terminal/output', 'terminal/wait_for_exit', 'terminal/output', 'terminal/release']);
    const text = said(updates)[0];
    assert.match(text, /hi/);
    assert.match(text, /exit code: 2$/);
    const last = updates.filter((u) => u.sessionUpdate === 'tool_call_update').at(-1) as Update;
    assert.equal(last.status, 'failed');
    assertValid(s);
  });

  it('/terminal (v1): cancel while the command runs kills and releases the terminal', async () => {
    const s = await start({ version: 1, clientCapabilities: { terminal: true } });
    const methods: string[] = [];
    let killed: () => void = () => undefined;
    const exited = new Promise<object>((resolve) => (killed = () => resolve({ exitCode: null, signal: 'SIGKILL' })));
    s.client.onAgentRequest = (m) => {
      methods.push(m.method as string);
      switch (m.method) {
        case 'terminal/create':
          return { terminalId: 't1' };
        case 'terminal/output':
          return { output: '', truncated: false };
        case 'terminal/wait_for_exit':
          s.client.notify('session/cancel', { sessionId: s.sessionId });
          return exited;
        case 'terminal/kill':
          killed();
          return {};
        case 'terminal/release':
          return {};
        default:
          throw new Error(`unexpected ${m.method}`);
      }
    };
    const from = s.client.received.length;
    const answer = await s.client.request('session/prompt', { sessionId: s.sessionId, prompt: [text('/terminal sleep 100')] });
    assert.deepEqual(answer, { stopReason: 'cancelled' });
    assert.deepEqual(methods, ['terminal/create', 'terminal/output', 'terminal/wait_for_exit', 'terminal/kill', 'terminal/release']);
    const last = s.client
      .updates(from)
      .filter((u) => u.sessionUpdate === 'tool_call_update')
      .at(-1) as Update;
    assert.equal(last.status, 'failed', 'v1 has no cancelled tool status');
    assertValid(s);
  });

  it('/terminal and /vterm say what the version lacks', async () => {
    const v2 = await start({ version: 2 });
    assert.match(said(await turnV2(v2, '/terminal ls'))[0], /^terminal: ACP v2 has no client terminals/);
    const v1 = await start({ version: 1 });
    assert.match(said(await turnV1(v1, '/terminal ls'))[0], /^terminal: the client did not advertise/);
    assert.match(said(await turnV1(v1, '/vterm'))[0], /^vterm: display terminals need ACP v2/);
  });

  describe('version negotiation', () => {
    it('a hybrid initialize with protocolVersion 2 is answered in v2', async () => {
      const { client, init } = await startClient({
        version: 2,
        initialize: { protocolVersion: 2, info: CLIENT_INFO, capabilities: {}, clientInfo: CLIENT_INFO, clientCapabilities: { fs: { readTextFile: true } } },
      });
      assert.equal(init.protocolVersion, 2);
      assert.deepEqual(init.info, { name: 'acp-plans-demo', title: 'Demo Agent', version: '0.1.0' });
      assert.deepEqual(client.problems, []);
    });

    it('ACP_DEMO_PROTOCOL=1 answers a v2 request in v1, reading the hybrid clientCapabilities', async () => {
      const cwd = tempDir();
      const { client, init } = await startClient({
        version: 2,
        env: { ACP_DEMO_PROTOCOL: '1' },
        schemas: () => ['v1.unstable'], // plan_update (opted in) is not in the stable v1 schema
        initialize: { protocolVersion: 2, info: CLIENT_INFO, capabilities: {}, clientInfo: CLIENT_INFO, clientCapabilities: { plan: {} } },
      });
      assert.equal(init.protocolVersion, 1);
      assert.equal((init.agentCapabilities as Update).loadSession, true);
      assert.deepEqual((init.agentCapabilities as { sessionCapabilities: Update }).sessionCapabilities, { list: {}, resume: {}, close: {} });
      const { sessionId } = (await client.request('session/new', { cwd, mcpServers: [] })) as { sessionId: string };
      const from = client.received.length;
      await client.request('session/prompt', { sessionId, prompt: [text('/burst 2')] });
      assert.ok(
        client.updates(from).some((u) => u.sessionUpdate === 'plan_update'),
        'the plan opt-in was read',
      );
      assert.deepEqual(client.problems, []);
    });

    it('--protocol=2 answers a v1 request in v2', async () => {
      const { init } = await startClient({ version: 1, args: ['--protocol=2'] });
      assert.equal(init.protocolVersion, 2);
      assert.ok(init.info);
    });

    it('rejects a string protocolVersion with -32602', async () => {
      const { client } = await startClient({ version: 2, initialize: { protocolVersion: 2, info: CLIENT_INFO } });
      await assert.rejects(client.request('initialize', { protocolVersion: 2 }), /-32600/, 'a second initialize is refused');
      const fresh = await startClient({ version: 2, initialize: { protocolVersion: 1 } });
      assert.equal(fresh.init.protocolVersion, 1);
      await assert.rejects(startClient({ version: 2, initialize: { protocolVersion: '0.0.1' } }), /-32602/);
    });
  });
});

describe('/workload: the steady-cost scripted turn', () => {
  it('has 2,000 chunks, 41 plan updates and 500 tool events, spread evenly, the last chunk last', async () => {
    const { workloadSteps } = await import('../../../src/demo/scenarios/workload');
    const steps = workloadSteps();
    const count = (kind: string): number => steps.filter((s) => s.kind === kind).length;
    assert.deepEqual([count('chunk'), count('plan'), count('tool')], [2000, 41, 500]);
    assert.deepEqual(steps.at(-1), { kind: 'chunk', k: 2000 });
    const firstHalf = steps.slice(0, steps.length / 2);
    assert.ok(Math.abs(firstHalf.filter((s) => s.kind === 'plan').length - 20) <= 1, 'plan updates spread over the turn');
  });
});
