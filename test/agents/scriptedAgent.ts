// A scripted ACP agent for tests: plain Node, raw NDJSON on stdin/stdout, no dependencies.
//
//   node scriptedAgent.js <initMode> [<options JSON>]
//
// initMode — how it answers `initialize`:
//   v2            protocolVersion 2 with a v2 body (`info`, `capabilities`)
//   v1            protocolVersion 1 with a v1 body (`agentInfo`, `agentCapabilities`)
//   echo-v1       a naive v1 agent: echoes the requested protocolVersion with a v1 body
//   version:<n>   answers protocolVersion <n> (a number) with a v1 body
//   string        answers the pre-release string "0.0.1"
//   unsupported:<a,b>  supports only the listed versions: answers a request for one of them,
//                 else fails with -32022 {requested, supported}
//   fail-v2       fails a v2 initialize with -32603, answers a v1 one as v1
//   hang          never answers `initialize`
//   exit          exits when asked to `initialize`
// The body (v1 or v2) then decides what the agent speaks for the rest of the connection.
//
// options: { noise?: boolean (log lines on stdout), crlf?: boolean (CRLF line ends),
//            batch?: boolean (v2: send the turn's updates as one batch array),
//            promptMessageId?: boolean (v2: answer session/prompt with {messageId}),
//            ignoreCaps?: boolean (v1: call fs/terminal even when the client did not offer them),
//            noLoad?: boolean (v1: advertise no `loadSession`, so sessions cannot be resumed),
//            answerAll?: boolean (run a `no-answer` prompt as any other: the agent restarted after a
//            crash, given the prompt sent again) }
//
// Sessions: `session/new` answers sess-1, sess-2, … ; `session/load` (v1) and `session/resume` with
// `replayFrom` (v2) replay a short history (a user chunk "replayed prompt", an agent chunk
// "replayed answer", a plan) before answering; `session/resume` without it just answers.
//
// Prompt text drives the turn; it may contain the words:
//   permission  ask session/request_permission and report the outcome as an agent message
//   withdraw    ask a permission; once the client sends `session/cancel` for the session id
//               "trigger-withdraw", withdraw it with $/cancel_request; report the answer
//   early-withdraw  ask a permission and withdraw it in the same write; report the answer
//   fs          call fs/read_text_file (v1: only if the client offered it) and report the result
//   terminal    call terminal/create (v1: only if offered) and report the result
//   elicit      call elicitation/create and report the error code
//   malformed   send a malformed known update and an unknown update type
//   stall       never end the turn (v1: the prompt is never answered; v2: no idle state_update)
//   crash       exit with code 137 in the middle of the turn (as a wrapper reports a SIGKILL)
// Every message the agent receives is also echoed to stderr (for debugging failing tests).
type Obj = Record<string, unknown>;
type Id = number | string;

const mode = process.argv[2] ?? 'v2';
const opts = JSON.parse(process.argv[3] ?? '{}') as {
  noise?: boolean;
  crlf?: boolean;
  batch?: boolean;
  promptMessageId?: boolean;
  ignoreCaps?: boolean;
  noLoad?: boolean;
  answerAll?: boolean;
};
const eol = opts.crlf ? '\r\n' : '\n';

let version: 1 | 2 = 2;
let clientCaps: Obj = {};
let nextId = 1;
let sessions = 0;
const waiting = new Map<Id, (msg: Obj) => void>();
const cancelled = new Set<string>();
/** Resolvers waiting for a `session/cancel` of a given session id (test triggers). */
const cancelWaiters = new Map<string, () => void>();

function send(msg: unknown): void {
  process.stdout.write(JSON.stringify(msg) + eol);
}
function respond(id: Id, result: unknown): void {
  send({ jsonrpc: '2.0', id, result });
}
function fail(id: Id, code: number, message: string, data?: unknown): void {
  send({ jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } });
}
function request(method: string, params: unknown): { id: Id; reply: Promise<Obj> } {
  const id = `agent-${nextId++}`;
  const reply = new Promise<Obj>((resolve) => waiting.set(id, resolve));
  send({ jsonrpc: '2.0', id, method, params });
  return { id, reply };
}
function update(sessionId: string, u: Obj): Obj {
  return { jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: u } };
}

const v1Body = (protocolVersion: unknown): Obj => ({
  protocolVersion,
  agentCapabilities: { loadSession: !opts.noLoad, promptCapabilities: { image: true }, sessionCapabilities: { list: {} } },
  authMethods: [{ id: 'login', name: 'Log in' }],
  agentInfo: { name: 'scripted-v1', version: '1.0.0' },
});
const v2Body = (): Obj => ({
  protocolVersion: 2,
  info: { name: 'scripted-v2', title: 'Scripted v2', version: '2.0.0' },
  capabilities: { session: { prompt: { image: {} }, delete: {} } },
  authMethods: [],
});

function initialize(id: Id, params: Obj): void {
  const requested = params.protocolVersion;
  const answerFor = (v: number): void => {
    if (v === 2) {
      version = 2;
      clientCaps = (params.capabilities as Obj) ?? {};
      respond(id, v2Body());
      return;
    }
    // A v1 agent reads only the v1 fields (unknown fields are dropped).
    version = 1;
    clientCaps = (params.clientCapabilities as Obj) ?? {};
    respond(id, v1Body(v));
  };
  if (mode === 'v2') return answerFor(2);
  if (mode === 'v1') return answerFor(1);
  if (mode === 'hang') return;
  if (mode === 'exit') process.exit(3);
  if (mode === 'echo-v1') {
    version = 1;
    clientCaps = (params.clientCapabilities as Obj) ?? {};
    return respond(id, v1Body(requested));
  }
  if (mode === 'string') return respond(id, v1Body('0.0.1'));
  if (mode.startsWith('version:')) return respond(id, v1Body(Number(mode.slice('version:'.length))));
  if (mode === 'fail-v2') {
    if (requested === 2) return fail(id, -32603, 'this agent crashes on v2 initialize');
    return answerFor(1);
  }
  if (mode.startsWith('unsupported:')) {
    const supported = mode.slice('unsupported:'.length).split(',').map(Number);
    if (typeof requested === 'number' && supported.includes(requested)) return answerFor(requested);
    return fail(id, -32022, 'Unsupported protocol version', { requested, supported });
  }
  fail(id, -32603, `unknown test mode ${mode}`);
}

function permissionParams(sessionId: string): Obj {
  const options = [
    { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
    { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
  ];
  if (version === 1) return { sessionId, toolCall: { toolCallId: 'call-1', title: 'Run tests', status: 'pending' }, options };
  return { sessionId, title: 'Run tests?', subject: { type: 'tool_call', toolCall: { toolCallId: 'call-1', title: 'Run tests' } }, options };
}

function say(sessionId: string, text: string): void {
  send(
    update(
      sessionId,
      version === 1
        ? { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } }
        : { sessionUpdate: 'agent_message_chunk', messageId: 'agent-msg-1', content: { type: 'text', text } },
    ),
  );
}

function describeReply(r: Obj): string {
  if (r.error) return `error ${(r.error as { code: number }).code}`;
  return JSON.stringify(r.result);
}

async function runTurn(sessionId: string, text: string): Promise<void> {
  if (version === 1) {
    say(sessionId, 'Hello');
    send(update(sessionId, { sessionUpdate: 'plan', entries: [{ content: 'Write tests', priority: 'high', status: 'in_progress' }] }));
  } else {
    const updates = [
      update(sessionId, { sessionUpdate: 'user_message', messageId: 'user-msg-1', content: [{ type: 'text', text }] }),
      update(sessionId, { sessionUpdate: 'state_update', state: 'running' }),
      update(sessionId, { sessionUpdate: 'agent_message_chunk', messageId: 'agent-msg-1', content: { type: 'text', text: 'Hello' } }),
      update(sessionId, {
        sessionUpdate: 'plan_update',
        plan: { type: 'items', planId: 'plan-1', entries: [{ content: 'Write tests', priority: 'high', status: 'in_progress' }] },
      }),
    ];
    if (opts.batch) send(updates);
    else updates.forEach(send);
  }
  if (text.includes('permission')) {
    const { reply } = request('session/request_permission', permissionParams(sessionId));
    const r = await reply;
    say(sessionId, `permission: ${r.error ? `error ${(r.error as { code: number }).code}` : JSON.stringify((r.result as Obj).outcome)}`);
  }
  if (/(^| )withdraw/.test(text)) {
    const trigger = new Promise<void>((resolve) => cancelWaiters.set('trigger-withdraw', resolve));
    const { id, reply } = request('session/request_permission', permissionParams(sessionId));
    await trigger;
    send({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: id } });
    say(sessionId, `withdraw: ${describeReply(await reply)}`);
  }
  if (text.includes('early-withdraw')) {
    const id = `agent-${nextId++}`;
    const reply = new Promise<Obj>((resolve) => waiting.set(id, resolve));
    process.stdout.write(
      JSON.stringify({ jsonrpc: '2.0', id, method: 'session/request_permission', params: permissionParams(sessionId) }) +
        eol +
        JSON.stringify({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: id } }) +
        eol,
    );
    say(sessionId, `early-withdraw: ${describeReply(await reply)}`);
  }
  if (text.includes('fs')) {
    const offered = (clientCaps.fs as Obj | undefined)?.readTextFile === true;
    if (version === 1 && !offered && !opts.ignoreCaps) say(sessionId, 'fs: not offered');
    else say(sessionId, `fs: ${describeReply(await request('fs/read_text_file', { sessionId, path: '/work/README.md', line: 1, limit: 2 }).reply)}`);
  }
  if (text.includes('terminal')) {
    if (version === 1 && clientCaps.terminal !== true && !opts.ignoreCaps) say(sessionId, 'terminal: not offered');
    else say(sessionId, `terminal: ${describeReply(await request('terminal/create', { sessionId, command: 'echo', args: ['hi'] }).reply)}`);
  }
  if (text.includes('elicit')) {
    const r = await request('elicitation/create', { sessionId, mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: {} } }).reply;
    say(sessionId, `elicit: ${describeReply(r)}`);
  }
  if (text.includes('crash')) process.exit(137);
  if (text.includes('stall')) await new Promise<never>(() => undefined);
  if (text.includes('malformed')) {
    send(update(sessionId, version === 1 ? { sessionUpdate: 'plan', entries: 'not a list' } : { sessionUpdate: 'plan_update', plan: 5 }));
    send(update(sessionId, { sessionUpdate: '_custom_thing', value: 42 }));
  }
}

async function prompt(id: Id, params: Obj): Promise<void> {
  const sessionId = String(params.sessionId);
  const blocks = (params.prompt as { type: string; text?: string }[]) ?? [];
  const text = blocks.map((b) => b.text ?? '').join(' ');
  cancelled.delete(sessionId);
  if (text === 'no-answer' && !opts.answerAll) return; // never answered: the outcome stays unknown (a crash follows)
  if (version === 2) respond(id, opts.promptMessageId ? { messageId: 'user-msg-1' } : {});
  await runTurn(sessionId, text);
  const stopReason = cancelled.has(sessionId) ? 'cancelled' : 'end_turn';
  if (version === 1) respond(id, { stopReason });
  else send(update(sessionId, { sessionUpdate: 'state_update', state: 'idle', stopReason }));
}

/** Replays a short history of `sessionId` (session/load, or session/resume with replayFrom). */
function replay(sessionId: string): void {
  const id = (m: string): Obj => (version === 2 ? { messageId: m } : {});
  send(update(sessionId, { sessionUpdate: 'user_message_chunk', ...id('replay-user-1'), content: { type: 'text', text: 'replayed prompt' } }));
  send(update(sessionId, { sessionUpdate: 'agent_message_chunk', ...id('replay-agent-1'), content: { type: 'text', text: 'replayed answer' } }));
  send(
    update(
      sessionId,
      version === 1
        ? { sessionUpdate: 'plan', entries: [{ content: 'Replayed step', priority: 'high', status: 'completed' }] }
        : {
            sessionUpdate: 'plan_update',
            plan: { type: 'items', planId: 'plan-1', entries: [{ content: 'Replayed step', priority: 'high', status: 'completed' }] },
          },
    ),
  );
}

function handle(msg: Obj): void {
  process.stderr.write(`agent got: ${JSON.stringify(msg)}\n`);
  const id = msg.id as Id | undefined;
  const method = msg.method as string | undefined;
  const params = (msg.params ?? {}) as Obj;
  if (method === undefined && id !== undefined) {
    waiting.get(id)?.(msg);
    waiting.delete(id);
    return;
  }
  if (method === 'session/cancel') {
    const sid = String(params.sessionId);
    cancelled.add(sid);
    cancelWaiters.get(sid)?.();
    cancelWaiters.delete(sid);
    return;
  }
  if (id === undefined || method === undefined) return; // other notifications
  switch (method) {
    case 'initialize':
      return initialize(id, params);
    case 'session/new': {
      const sessionId = `sess-${++sessions}`;
      return respond(id, version === 1 ? { sessionId } : { sessionId, configOptions: [] });
    }
    case 'session/load':
      if (version !== 1 || opts.noLoad) return fail(id, -32601, `Method not found: ${method}`);
      replay(String(params.sessionId));
      return respond(id, null);
    case 'session/resume':
      if (version !== 2) return fail(id, -32601, `Method not found: ${method}`);
      if (params.replayFrom) replay(String(params.sessionId));
      return respond(id, {});
    case 'session/prompt':
      void prompt(id, params);
      return;
    case 'authenticate':
    case 'auth/login':
    case 'logout':
    case 'auth/logout':
    case 'session/close':
    case 'session/delete':
      return respond(id, {});
    default:
      return fail(id, -32601, `Method not found: ${method}`);
  }
}

if (opts.noise) process.stdout.write(`scripted agent starting (mode ${mode})${eol}[debug] ready${eol}`);
let pending: Buffer[] = [];
process.stdin.on('data', (chunk: Buffer) => {
  let start = 0;
  for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
    pending.push(chunk.subarray(start, nl));
    const line = Buffer.concat(pending).toString('utf8').trim();
    pending = [];
    start = nl + 1;
    if (line) handle(JSON.parse(line) as Obj);
  }
  if (start < chunk.length) pending.push(chunk.subarray(start));
});
process.stdin.on('end', () => process.exit(0));
