// A session the user closed is closed for its agent too: through the real supervisor against the
// fake endpoint (support/fakeEndpoint.ts), the agent keeps speaking for a closed session — updates,
// a permission request, a session-scoped elicitation, a child announcement naming it, and (v1) fs
// reads and writes and terminal/create — and nothing of it reaches the host: updates are dropped
// and reported once, the permission is answered `cancelled`, the elicitation `cancel`, the client
// services refuse with a JSON-RPC error. A resume by the user (resumeExisting) admits it again.
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import type { AgentDefinition } from '../../../src/agents/agentConfig';
import { AgentSupervisor } from '../../../src/agents/supervisor';
import type { ClientServices, CancelToken } from '../../../src/protocol/api';
import type { PermissionOutcome, PermissionRequest, SessionEvent } from '../../../src/protocol/domain';
import type { ElicitationRequest, ElicitationResponse } from '../../../src/protocol/elicitation';
import { FakeEndpointHost, type FakeAgent } from './support/fakeEndpoint';

const def: AgentDefinition = { id: 'agent:fake', name: 'Fake Agent', command: 'not-run', args: [], env: {}, protocol: 'auto', builtIn: false };
const cwd = os.tmpdir();

/** A host that records every permission request, elicitation and client service call it gets. */
class RecordingHost extends FakeEndpointHost {
  /** "<what> <sessionId>", in order. */
  readonly reached: string[] = [];

  override services(): ClientServices {
    const note = (what: string, sessionId: string): void => {
      this.reached.push(`${what} ${sessionId}`);
    };
    return {
      readTextFile: (p) => {
        note('read', p.sessionId);
        return Promise.resolve({ content: 'text' });
      },
      writeTextFile: (p) => {
        note('write', p.sessionId);
        return Promise.resolve();
      },
      terminal: {
        create: (p) => {
          note('terminal', p.sessionId);
          return Promise.resolve({ terminalId: 'term_1' });
        },
        output: (p) => {
          note('output', p.sessionId);
          return Promise.resolve({ output: '', truncated: false });
        },
        waitForExit: (p) => {
          note('wait', p.sessionId);
          return Promise.resolve({ exitCode: 0 });
        },
        kill: (p) => {
          note('kill', p.sessionId);
          return Promise.resolve();
        },
        release: (p) => {
          note('release', p.sessionId);
          return Promise.resolve();
        },
      },
    };
  }
  override requestPermission(_agentId?: string, req?: PermissionRequest): Promise<PermissionOutcome> {
    this.reached.push(`permission ${req?.sessionId ?? ''}`);
    return Promise.resolve({ outcome: 'cancelled' });
  }
  elicit(_agentId: string, req: ElicitationRequest, _token: CancelToken): Promise<ElicitationResponse> {
    this.reached.push(`elicit ${req.scope.type === 'session' ? req.scope.sessionId : ''}`);
    return Promise.resolve({ action: 'decline' });
  }
  /** What the supervisor logged as a warning (the gate's reports). */
  warnings(): string[] {
    return this.recorders.flatMap((r) => r.logs.filter((l) => l.level === 'warn').map((l) => l.message));
  }
}

const chunk = (text: string) => ({ sessionUpdate: 'agent_message_chunk', messageId: `m-${text}`, content: { type: 'text', text } });
const said = (sessionId: string, text: string) => (e: SessionEvent) =>
  e.sessionId === sessionId && e.kind === 'message_chunk' && JSON.stringify(e).includes(text);
const permission = (sessionId: string) => ({
  sessionId,
  title: 'Run tests?',
  subject: { type: 'tool_call', toolCall: { toolCallId: 'call-1', title: 'Run tests' } },
  options: [
    { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
    { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
  ],
});
const elicitation = (sessionId: string) => ({ sessionId, mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: {} } });

describe('AgentSupervisor: a closed session (fake endpoint)', () => {
  let host: RecordingHost;
  let sup: AgentSupervisor;

  beforeEach(() => {
    host = new RecordingHost();
    sup = new AgentSupervisor(def, host);
  });
  afterEach(async () => {
    sup.dispose();
    await host.cleanup();
  });

  /** Sends `text` for `sessionId`, then a marker for the open session `other`, and waits for the marker. */
  async function speak(agent: FakeAgent, sessionId: string, text: string, other: string): Promise<number> {
    const from = host.mark();
    agent.update(sessionId, chunk(text));
    agent.update(other, chunk(`after-${text}`));
    await host.waitEvent(said(other, `after-${text}`), from);
    return from;
  }

  it('v2: updates, permission requests, elicitations and child announcements for a closed session reach nothing until the user resumes it', async () => {
    await sup.start();
    const a = await sup.newSession(cwd);
    const b = await sup.newSession(cwd);
    const agent = host.endpoint.agent;
    let from = await speak(agent, a, 'before', b);
    assert.ok(host.events(from).some(said(a, 'before')), 'an open session is shown');

    await sup.closeSession(a);
    from = await speak(agent, a, 'closed-1', b);
    agent.update(b, { sessionUpdate: 'subagent_update', sessionId: a, title: 'I am back' }); // names the closed one as its child
    await speak(agent, a, 'closed-2', b);
    assert.deepEqual(
      host.events(from).filter((e) => e.sessionId === a),
      [],
      'nothing of the closed session is shown',
    );
    assert.ok(!host.events(from).some((e) => e.kind === 'subagent' && e.childSessionId === a), 'the announcement does not re-admit it');
    const perm = await agent.request('session/request_permission', permission(a));
    assert.deepEqual(perm.result, { outcome: { outcome: 'cancelled' } });
    const eli = await agent.request('elicitation/create', elicitation(a));
    assert.deepEqual(eli.result, { action: 'cancel' });
    assert.deepEqual(host.reached, [], 'no prompt was put to the user');
    assert.equal(host.warnings().filter((w) => w.includes(`"${a}"`)).length, 1, 'reported once');

    await sup.resumeExisting(a, cwd, true);
    from = await speak(agent, a, 'resumed', b);
    assert.ok(host.events(from).some(said(a, 'resumed')), 'shown again after the resume');
    await agent.request('session/request_permission', permission(a));
    await agent.request('elicitation/create', elicitation(a));
    assert.deepEqual(host.reached, [`permission ${a}`, `elicit ${a}`]);
  });

  it('v1: fs reads and writes and terminal requests for a closed session are refused with an error until the user resumes it', async () => {
    host.agentVersion = 1;
    await sup.start();
    assert.equal(sup.version, 1);
    const a = await sup.newSession(cwd);
    const agent = host.endpoint.agent;
    const calls = (sessionId: string) => [
      agent.request('fs/write_text_file', { sessionId, path: `${cwd}/x.txt`, content: 'x' }),
      agent.request('fs/read_text_file', { sessionId, path: `${cwd}/x.txt` }),
      agent.request('terminal/create', { sessionId, command: 'echo', args: ['hi'] }),
      agent.request('terminal/output', { sessionId, terminalId: 'term_1' }),
      agent.request('terminal/wait_for_exit', { sessionId, terminalId: 'term_1' }),
      agent.request('terminal/kill', { sessionId, terminalId: 'term_1' }),
      agent.request('terminal/release', { sessionId, terminalId: 'term_1' }),
    ];
    const served = ['write', 'read', 'terminal', 'output', 'wait', 'kill', 'release'].map((w) => `${w} ${a}`);
    const open = await Promise.all(calls(a));
    assert.deepEqual(
      open.map((r) => r.error),
      open.map(() => undefined),
    );
    assert.deepEqual(host.reached, served);

    await sup.closeSession(a);
    const closed = await Promise.all(calls(a));
    for (const r of closed)
      assert.ok(r.error && typeof (r.error as { code?: unknown }).code === 'number', `refused with a JSON-RPC error: ${JSON.stringify(r)}`);
    assert.deepEqual(host.reached, served, 'no service was called for the closed session');

    await sup.resumeExisting(a, cwd, true);
    const again = await Promise.all(calls(a));
    assert.deepEqual(
      again.map((r) => r.error),
      again.map(() => undefined),
    );
    assert.deepEqual(host.reached, [...served, ...served]);
  });
});
