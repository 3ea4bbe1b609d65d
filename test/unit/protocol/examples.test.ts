// Runs every documentation example (test/fixtures/examples, see SOURCE.md there) through our
// parser for its version and compares our verdict (accept/reject) with the official schema's.
//
// - Session updates and `session/update` notifications → adapter.decodeUpdate.
// - Agent → client requests → decodePermissionRequest / the v1 client-service decoders.
// - Client → agent requests and notifications, and our results to the agent's requests → our
//   outgoing schemas (v1/outgoing.ts, v2/outgoing.ts): what we would send must pass them.
// - Responses to our requests → the decoder of the request they answer (paired by source page
//   and id). INDEX.txt only says "valid as some response type", so the reference verdict for a
//   response is the official schema's verdict for that specific response type (ajv).
// The reference verdict is the unstable schema's when INDEX.txt has one (we parse with the
// unstable unions), else the stable one's.
import * as assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import * as path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import type { AdapterCall, VersionAdapter } from '../../../src/protocol/adapter';
import { createAdapter } from '../../../src/protocol/adapter';
import { V1_CLIENT_RESULTS, V1_NOTIFICATION_PARAMS, V1_REQUEST_PARAMS } from '../../../src/protocol/v1/outgoing';
import { V2_CLIENT_RESULTS, V2_NOTIFICATION_PARAMS, V2_REQUEST_PARAMS } from '../../../src/protocol/v2/outgoing';
import type * as z from 'zod/mini';

/** Every example where our verdict deliberately differs from the schema's, with the reason. */
const LENIENCIES: Record<string, string> = {
  // The v1 session-modes page puts a bare ContentBlock where `{type:"content", content}` belongs.
  // v1's ToolCallContent union is closed, so the schema rejects the request; the SDKs drop the
  // item (skip-invalid-items). We keep it as an `unknown` tool-call content, whole, and show it.
  'v1/protocol__v1__session-modes__03.json#v1': 'unknown tool-call content type kept (v1 union is closed)',
  'v1/protocol__v1__draft__session-modes__03.json#v1': 'unknown tool-call content type kept (v1 union is closed)',
  // The v1 session-setup page answers session/load with `result: null`; the schema wants an
  // object. A null result of a method whose result has only optional fields reads as `{}`.
  'v1/protocol__v1__session-setup__06.json#v1': 'null result of session/load accepted as {}',
};

const root = findRoot(__dirname) ?? findRoot(process.cwd()) ?? '.';
const examplesDir = path.join(root, 'test/fixtures/examples');
const schemasDir = path.join(root, 'test/fixtures/schemas');

/** The nearest directory above `from` holding test/fixtures/examples. */
function findRoot(from: string): string | undefined {
  for (let d = from; ; d = path.dirname(d)) {
    if (existsSync(path.join(d, 'test/fixtures/examples/INDEX.txt'))) return d;
    if (path.dirname(d) === d) return undefined;
  }
}

type Verdict = 'accept' | 'reject';
type Outcome = { verdict: Verdict; expected: Verdict; why: string } | { skipped: string };

interface Example {
  file: string;
  source: string;
  validity: Record<string, string>;
  message: Record<string, unknown>;
  asUpdate: boolean;
}

function loadExamples(): Example[] {
  const index = readFileSync(path.join(examplesDir, 'INDEX.txt'), 'utf8').trim().split('\n');
  return index.map((line) => {
    const [file, validatedAs] = line.split('\t');
    const doc = JSON.parse(readFileSync(path.join(examplesDir, file), 'utf8')) as {
      source: string;
      validity: Record<string, string>;
      example: Record<string, unknown>;
    };
    return { file, source: doc.source, validity: doc.validity, message: doc.example, asUpdate: validatedAs === 'SessionUpdate' };
  });
}

/** Which method a response answers: the request with the same id on the same page, else a fixed table. */
const UNPAIRED_RESPONSES: Record<string, string> = {
  // The migration guide shows a v1 and a v2 prompt response side by side (request not shown).
  'v2/protocol__v2__migration__06.json': 'session/prompt',
  'v2/protocol__v2__migration__07.json': 'session/prompt',
};

function pairResponses(all: Example[]): Map<string, string> {
  const out = new Map<string, string>();
  const isRequestFor = (o: Example, ex: Example) => o.source === ex.source && o.message.id === ex.message.id && typeof o.message.method === 'string';
  all.forEach((ex, i) => {
    const m = ex.message;
    if (!('result' in m) || m.method !== undefined) return;
    // The nearest request with that id before the response on the same page, else after it.
    const before = all
      .slice(0, i)
      .reverse()
      .find((o) => isRequestFor(o, ex));
    const request = before ?? all.slice(i + 1).find((o) => isRequestFor(o, ex));
    let method = (request?.message.method as string | undefined) ?? UNPAIRED_RESPONSES[ex.file];
    const result = m.result as Record<string, unknown> | null;
    // Pages that show only a capability or setup answer (the request is on another page).
    if (!method && result && 'protocolVersion' in result) method = 'initialize';
    if (!method && result && 'sessionId' in result) method = 'session/new';
    if (method) out.set(ex.file, method);
  });
  return out;
}

const RESPONSE_DEFS: Record<string, string> = {
  initialize: 'InitializeResponse',
  authenticate: 'AuthenticateResponse',
  logout: 'LogoutResponse',
  'auth/login': 'LoginAuthResponse',
  'auth/logout': 'LogoutAuthResponse',
  'session/new': 'NewSessionResponse',
  'session/load': 'LoadSessionResponse',
  'session/resume': 'ResumeSessionResponse',
  'session/list': 'ListSessionsResponse',
  'session/close': 'CloseSessionResponse',
  'session/delete': 'DeleteSessionResponse',
  'session/set_mode': 'SetSessionModeResponse',
  'session/set_config_option': 'SetSessionConfigOptionResponse',
  'session/prompt': 'PromptResponse',
  'session/request_permission': 'RequestPermissionResponse',
  'fs/read_text_file': 'ReadTextFileResponse',
  'fs/write_text_file': 'WriteTextFileResponse',
  'terminal/create': 'CreateTerminalResponse',
  'terminal/output': 'TerminalOutputResponse',
  'terminal/wait_for_exit': 'WaitForTerminalExitResponse',
  'terminal/kill': 'KillTerminalResponse',
  'terminal/release': 'ReleaseTerminalResponse',
};

const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
for (const v of [1, 2]) {
  ajv.addSchema(JSON.parse(readFileSync(path.join(schemasDir, `v${v}.unstable.schema.json`), 'utf8')), `v${v}u`);
}
function schemaVerdict(version: 1 | 2, def: string, value: unknown): Verdict {
  const validate = ajv.getSchema(`v${version}u#/$defs/${def}`);
  assert.ok(validate, `no $def ${def} in v${version}`);
  return validate(value) ? 'accept' : 'reject';
}

function indexVerdict(ex: Example, version: 1 | 2): string | undefined {
  return ex.validity[`v${version}.unstable`] ?? ex.validity[`v${version}`];
}

function tryIt(fn: () => unknown): Verdict {
  try {
    fn();
    return 'accept';
  } catch {
    return 'reject';
  }
}

function check(schema: z.ZodMiniType | undefined, value: unknown): Verdict {
  assert.ok(schema, 'no outgoing schema');
  return schema.safeParse(value).success ? 'accept' : 'reject';
}

/** A call for `method` (arguments are placeholders: only its result decoder is used). */
function callFor(a: VersionAdapter, method: string): AdapterCall<unknown> | undefined {
  const s = { cwd: '/w', sessionId: 's', replay: true };
  const m = a.methods;
  const calls: Record<string, () => AdapterCall<unknown>> = {
    [m.authenticate]: () => a.authenticate('x'),
    [m.logout]: () => a.logout(),
    [m.sessionNew]: () => a.newSession(s),
    [m.sessionResume]: () => a.resumeSession({ ...s, replay: false }),
    [m.sessionList]: () => a.listSessions(),
    [m.sessionClose]: () => a.closeSession('s'),
    [m.sessionDelete]: () => a.deleteSession('s'),
    [m.sessionSetConfigOption]: () => a.setConfigOption('s', 'c', 'v'),
    [m.sessionPrompt]: () => a.prompt('s', []),
  };
  if (m.sessionLoad) calls[m.sessionLoad] = () => a.resumeSession(s);
  if (m.sessionSetMode) calls[m.sessionSetMode] = () => a.setConfigOption('s', '_acp_v1_mode', 'm');
  return calls[method]?.();
}

function judge(ex: Example, version: 1 | 2, pairs: Map<string, string>): Outcome {
  const a = createAdapter(version);
  const msg = ex.message;
  const expectedIndex = indexVerdict(ex, version) ?? '';
  const fromIndex = (): Verdict => (expectedIndex.startsWith('valid') ? 'accept' : 'reject');
  const requests = version === 1 ? V1_REQUEST_PARAMS : V2_REQUEST_PARAMS;
  const notifications = version === 1 ? V1_NOTIFICATION_PARAMS : V2_NOTIFICATION_PARAMS;
  const ourResults = version === 1 ? V1_CLIENT_RESULTS : V2_CLIENT_RESULTS;

  if (ex.asUpdate) {
    return { verdict: tryIt(() => decodeKeepingItems(a, { sessionId: 's', update: msg })), expected: fromIndex(), why: 'session update' };
  }
  if ('error' in msg) return { skipped: 'error response (handled by the transport, not by the adapters)' };
  const method = typeof msg.method === 'string' ? msg.method : undefined;
  if (method !== undefined) {
    const params = msg.params;
    if (method.startsWith('_')) return { skipped: 'extension method (the connection answers -32601 / ignores it)' };
    if (method === a.methods.elicitationCreate) return { verdict: tryIt(() => a.decodeElicitation(params)), expected: fromIndex(), why: method };
    if (method === a.methods.elicitationComplete) {
      return { verdict: a.decodeElicitationComplete(params) === undefined ? 'reject' : 'accept', expected: fromIndex(), why: method };
    }
    if (method === a.methods.sessionUpdate) return { verdict: tryIt(() => decodeKeepingItems(a, params)), expected: fromIndex(), why: method };
    if (method === a.methods.requestPermission) return { verdict: tryIt(() => a.decodePermissionRequest(params)), expected: fromIndex(), why: method };
    const service = Object.values(a.clientServices ?? {}).find((c) => c.method === method);
    if (service) return { verdict: tryIt(() => service.decodeParams(params)), expected: fromIndex(), why: method };
    if ('id' in msg && requests[method]) return { verdict: check(requests[method], params), expected: fromIndex(), why: `outgoing ${method}` };
    if (!('id' in msg) && notifications[method]) return { verdict: check(notifications[method], params), expected: fromIndex(), why: `outgoing ${method}` };
    return { skipped: `method ${method} is not one this client sends or receives in v${version}` };
  }
  const answered = pairs.get(ex.file);
  if (!answered) return { skipped: 'response whose request cannot be identified' };
  if (answered.startsWith('_')) return { skipped: 'response to an extension request' };
  const def = RESPONSE_DEFS[answered];
  if (!def) return { skipped: `response to ${answered}, not a method of v${version}` };
  const expected = schemaVerdict(version, def, msg.result);
  if (ourResults[answered]) return { verdict: check(ourResults[answered], msg.result), expected, why: `our result to ${answered}` };
  if (answered === a.methods.initialize) return { verdict: tryIt(() => a.parseInitializeResult(msg.result)), expected, why: 'initialize result' };
  const call = callFor(a, answered);
  if (!call) return { skipped: `response to ${answered}, not a request of v${version}` };
  return { verdict: tryIt(() => call.decode(msg.result)), expected, why: `${answered} result` };
}

/** Wire list key → model list key, for the lists whose items must all survive decoding. */
const LISTS: [string, string][] = [
  ['entries', 'entries'],
  ['availableCommands', 'commands'],
  ['content', 'content'],
];

function listSizes(o: unknown, key: string, out: number[] = []): number[] {
  if (Array.isArray(o)) {
    for (const x of o) listSizes(x, key, out);
    return out;
  }
  if (typeof o !== 'object' || o === null) return out;
  for (const [k, v] of Object.entries(o)) {
    if (k === key && Array.isArray(v)) out.push(v.length);
    if (k !== 'raw') listSizes(v, key, out);
  }
  return out;
}

const sum = (xs: number[]) => xs.reduce((t, n) => t + n, 0);

/** Decodes an update and checks that no item of a valid list was dropped on the way. */
function decodeKeepingItems(a: VersionAdapter, params: unknown): void {
  const events = a.decodeUpdate(params);
  const update = (params as { update: Record<string, unknown> }).update;
  if (events[0]?.kind === 'unknown') return;
  for (const [wire, model] of LISTS) {
    assert.equal(sum(listSizes(events, model)), sum(listSizes(update, wire)), `items of "${wire}" were dropped`);
  }
  const options = events.map((e) => (e.kind === 'config_options' ? e.options.length : 0));
  if (Array.isArray(update.configOptions)) assert.ok(sum(options) >= update.configOptions.length, 'config options were dropped');
}

function versionsOf(ex: Example): (1 | 2)[] {
  const keys = Object.keys(ex.validity);
  const out: (1 | 2)[] = [];
  if (keys.some((k) => k.startsWith('v1'))) out.push(1);
  if (keys.some((k) => k.startsWith('v2'))) out.push(2);
  return out;
}

describe('documentation examples', () => {
  const all = loadExamples();
  const pairs = pairResponses(all);
  const agree: string[] = [];
  const lenient: string[] = [];
  const disagree: string[] = [];
  const skipped: string[] = [];

  before(() => {
    for (const ex of all) {
      for (const v of versionsOf(ex)) {
        const key = `${ex.file}#v${v}`;
        const o = judge(ex, v, pairs);
        if ('skipped' in o) {
          skipped.push(`${key}: ${o.skipped}`);
          continue;
        }
        if (process.env.ACP_EXAMPLES_VERBOSE) console.log(`      ${key} ${o.why}: ${o.verdict}/${o.expected}`);
        if (o.verdict === o.expected) agree.push(key);
        else if (LENIENCIES[key]) lenient.push(key);
        else disagree.push(`${key} (${o.why}): we ${o.verdict}, schema ${o.expected}`);
      }
    }
    if (process.env.ACP_EXAMPLES_VERBOSE) for (const s of skipped) console.log(`      skipped ${s}`);
    console.log(
      `      examples: ${all.length} files, ${agree.length + lenient.length + disagree.length + skipped.length} checks: ` +
        `${agree.length} agree, ${lenient.length} listed leniencies, ${disagree.length} disagree, ${skipped.length} skipped`,
    );
  });

  it('covers every file of INDEX.txt', () => {
    assert.equal(all.length, 330);
  });

  it('agrees with the schema verdict except for the listed leniencies', () => {
    assert.deepEqual(disagree, []);
  });

  it('lists only leniencies that really differ', () => {
    assert.deepEqual(
      Object.keys(LENIENCIES).filter((k) => !lenient.includes(k)),
      [],
    );
  });

  it('skips only messages that are not client-side (each with a reason)', () => {
    for (const s of skipped) assert.match(s, /: .+/);
    assert.ok(agree.length > 250, `only ${agree.length} examples checked`);
  });
});
