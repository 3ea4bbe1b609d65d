// Elicitation: decoding `elicitation/create` in both versions (modes, scopes, bounds, links),
// what we send (capability, answers) against the later-draft schemas of both versions, the form
// checks people see, and a real round trip with the scripted agent.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { createAdapter } from '../../../src/protocol/adapter';
import { ELICITATION_LIMITS, type ElicitationForm, type ElicitationRequest } from '../../../src/protocol/elicitation';
import { checkForm, initialValues } from '../../../src/state/elicitationValues';
import { DEMO_FORM_SCHEMA } from '../../../src/demo/scenarios/elicitation';
import { decodeForm, urlProblem } from '../../../src/protocol/common/elicitation';
import { schemasDir } from './outbound';
import { killAgents, start } from './outboundHarness';

const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
const SETS = ['v1', 'v1.unstable', 'v2', 'v2.unstable'];
for (const s of SETS) ajv.addSchema(JSON.parse(readFileSync(path.join(schemasDir(), 'later-draft', `${s}.schema.json`), 'utf8')), s);
const validAll = (def: string, value: unknown, sets = SETS): void => {
  for (const s of sets) {
    const v = ajv.getSchema(`${s}#/$defs/${def}`);
    assert.ok(v, `${s} has ${def}`);
    assert.ok(v(value), `${s} ${def}: ${ajv.errorsText(v.errors)} for ${JSON.stringify(value)}`);
  }
};

const formParams = { sessionId: 'sess_1', mode: 'form', message: 'How should I approach this?', requestedSchema: DEMO_FORM_SCHEMA };
const form = (req: ElicitationRequest): ElicitationForm => {
  assert.equal(req.mode, 'form');
  return (req as { form: ElicitationForm }).form;
};

describe('elicitation', () => {
  for (const version of [1, 2] as const) {
    describe(`decoding (v${version})`, () => {
      const a = createAdapter(version);
      it('reads a session-scoped form with every field kind, required fields and defaults', () => {
        const r = a.decodeElicitation(formParams);
        assert.deepEqual(r.scope, { type: 'session', sessionId: 'sess_1', toolCallId: null });
        const f = form(r);
        assert.equal(f.title, 'Project details');
        assert.deepEqual(
          f.fields.map((x) => `${x.name}:${x.kind}:${x.required}`),
          [
            'name:string:true',
            'email:string:false',
            'language:choice:true',
            'level:integer:false',
            'budget:number:false',
            'tests:boolean:false',
            'areas:multi:false',
          ],
        );
        const lang = f.fields[2]!;
        assert.ok(lang.kind === 'choice' && lang.options.map((o) => o.title).join() === 'TypeScript,Rust,Python');
        assert.deepEqual(initialValues(f), { name: '', email: '', language: '', level: '3', budget: '', tests: true, areas: [] });
      });
      it('reads a request-scoped URL and a tool-call scope', () => {
        const r = a.decodeElicitation({ requestId: 12, mode: 'url', elicitationId: 'e1', url: 'https://agent.example.com/connect?x=1', message: 'Authorize' });
        assert.deepEqual(r, {
          scope: { type: 'request', requestId: 12 },
          message: 'Authorize',
          mode: 'url',
          elicitationId: 'e1',
          url: 'https://agent.example.com/connect?x=1',
        });
        assert.deepEqual(a.decodeElicitation({ ...formParams, toolCallId: 'call_1' }).scope, { type: 'session', sessionId: 'sess_1', toolCallId: 'call_1' });
      });
      it('keeps an unknown mode raw and never offers a non-http(s) link', () => {
        const unknown = a.decodeElicitation({ sessionId: 's', mode: 'voice', message: 'Say it' });
        assert.equal(unknown.mode, 'unknown');
        assert.ok(unknown.mode === 'unknown' && unknown.raw.mode === 'voice');
        for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'command:workbench.action.quit', 'not a url']) {
          const r = a.decodeElicitation({ sessionId: 's', mode: 'url', elicitationId: 'e', url, message: 'm' });
          assert.equal(r.mode, 'unusable', url);
        }
      });
      it('rejects a broken envelope (answered -32602)', () => {
        assert.throws(() => a.decodeElicitation({ sessionId: 's', mode: 'form', requestedSchema: { type: 'object', properties: {} } }), /message/);
        assert.throws(
          () => a.decodeElicitation({ mode: 'form', message: 'm', requestedSchema: { type: 'object', properties: {} } }),
          /sessionId nor a requestId/,
        );
        assert.throws(() => a.decodeElicitation({ sessionId: 's', mode: 'url', message: 'm', url: 'https://x.y' }), /elicitationId/);
        assert.equal(a.decodeElicitationComplete({ elicitationId: 'e1' }), 'e1');
        assert.equal(a.decodeElicitationComplete({}), undefined);
      });
      it('advertises elicitation {form, url} only with a handler, valid in the later-draft schemas', () => {
        const init = (elicitation: boolean) => a.initializeParams({ clientInfo: { name: 'c', version: '1' }, unstablePlans: false, elicitation });
        const caps = (p: Record<string, unknown>) => (version === 1 ? p.clientCapabilities : p.capabilities) as Record<string, unknown>;
        assert.deepEqual(caps(init(true)).elicitation, { form: {}, url: {} });
        assert.equal(caps(init(false)).elicitation, undefined);
        validAll('ClientCapabilities', caps(init(true)), [`v${version}`, `v${version}.unstable`]);
      });
      it('answers accept / decline / cancel in the later-draft shape', () => {
        for (const r of [
          { action: 'accept' as const, content: { name: 'Ada', level: 3, budget: 1.5, tests: true, areas: ['docs'] } },
          { action: 'accept' as const },
          { action: 'decline' as const },
          { action: 'cancel' as const },
        ]) {
          validAll('CreateElicitationResponse', a.encodeElicitationResponse(r), [`v${version}`, `v${version}.unstable`]);
        }
      });
    });
  }

  describe('bounds', () => {
    it('declines a form with too many fields, too deep or too large, saying why (a code and its data)', () => {
      const many = Object.fromEntries(Array.from({ length: ELICITATION_LIMITS.maxFields + 1 }, (_, i) => [`f${i}`, { type: 'string' }]));
      assert.deepEqual(decodeForm({ type: 'object', properties: many }), {
        code: 'too-many-fields',
        data: { count: ELICITATION_LIMITS.maxFields + 1, limit: ELICITATION_LIMITS.maxFields },
      });
      let deep: Record<string, unknown> = {};
      const root = { type: 'object', properties: { a: { type: 'string', _meta: deep } } };
      for (let i = 0; i < 10; i++) {
        const next = {};
        deep.x = next;
        deep = next;
      }
      assert.deepEqual(decodeForm(root), { code: 'schema-too-deep', data: { limit: 6 } });
      assert.deepEqual(decodeForm({ type: 'object', properties: { a: { type: 'string', description: 'x'.repeat(70_000) } } }), {
        code: 'schema-too-large',
        data: { kb: 69, limitKb: 64 },
      });
      const opts = Array.from({ length: ELICITATION_LIMITS.maxOptions + 1 }, (_, i) => `o${i}`);
      assert.deepEqual(decodeForm({ type: 'object', properties: { a: { type: 'string', enum: opts } } }), {
        code: 'too-many-options',
        data: { field: 'a', count: 101, limit: 100 },
      });
    });
    it('hands up why a form or link cannot be shown as data, never as words (the views word it)', () => {
      assert.deepEqual(decodeForm({ type: 'object', properties: { a: { type: 'string', enum: [] } } }), { code: 'no-choices', data: { field: 'a' } });
      assert.deepEqual(urlProblem('javascript:alert(1)'), { code: 'url-not-web', data: { scheme: 'javascript:' } });
      for (const version of [1, 2] as const) {
        const r = createAdapter(version).decodeElicitation({ sessionId: 's', mode: 'url', elicitationId: 'e', url: 'not a url', message: 'm' });
        assert.equal(r.mode, 'unusable');
        assert.deepEqual(r.mode === 'unusable' && { requested: r.requested, problem: r.problem }, {
          requested: 'url',
          problem: { code: 'url-invalid', data: {} },
        });
      }
    });
    it('keeps an unknown property type raw (never an input) and cuts long labels', () => {
      const f = decodeForm({ type: 'object', properties: { s: { type: 'signature', title: 'T'.repeat(1000) } } }) as ElicitationForm;
      assert.equal(f.fields[0]!.kind, 'unknown');
      assert.equal(f.fields[0]!.label.length, ELICITATION_LIMITS.maxLabelChars);
    });
  });

  describe('checking what people type', () => {
    const f = decodeForm(DEMO_FORM_SCHEMA) as ElicitationForm;
    const base = { ...initialValues(f), name: 'Ada', language: 'ts' };
    it('turns valid input into typed content (defaults kept, empty optional fields left out)', () => {
      assert.deepEqual(checkForm(f, { ...base, budget: '2.5', areas: ['docs', 'ui'] }), {
        ok: true,
        content: { name: 'Ada', language: 'ts', level: 3, budget: 2.5, tests: true, areas: ['docs', 'ui'] },
      });
    });
    it('says what is wrong with each field', () => {
      const r = checkForm(f, { ...base, name: 'A', email: 'ada@', language: 'go', level: '9', budget: 'lots', areas: ['docs', 'nope'] });
      assert.deepEqual(r, {
        ok: false,
        errors: {
          name: 'At least 2 characters.',
          email: 'Enter an email address, like name@example.com.',
          language: 'Pick one of the choices.',
          level: 'Must be at most 5.',
          budget: 'Enter a number.',
        },
      });
      assert.deepEqual(checkForm(f, { ...base, name: '', language: '' }), { ok: false, errors: { name: 'Required.', language: 'Required.' } });
      assert.deepEqual(checkForm(f, { ...base, level: '2.5' }), { ok: false, errors: { level: 'Enter a whole number.' } });
    });
    it('checks formats, multi-select counts and unknown required fields', () => {
      const g = decodeForm({
        type: 'object',
        required: ['x'],
        properties: {
          d: { type: 'string', format: 'date' },
          t: { type: 'string', format: 'date-time' },
          u: { type: 'string', format: 'uri' },
          m: {
            type: 'array',
            minItems: 1,
            maxItems: 1,
            items: {
              anyOf: [
                { const: 'a', title: 'A' },
                { const: 'b', title: 'B' },
              ],
            },
          },
          x: { type: '_custom' },
        },
      }) as ElicitationForm;
      const r = checkForm(g, { d: '2026-02-30', t: 'yesterday', u: 'example', m: ['a', 'b'] });
      assert.ok(!r.ok);
      assert.deepEqual(Object.keys(r.errors).sort(), ['d', 'm', 't', 'u', 'x']);
      assert.match(r.errors.x!, /cannot show/);
      const ok = checkForm(
        { fields: g.fields.filter((x) => x.name !== 'x') },
        { d: '2026-02-28', t: '2026-12-01T18:00:00+01:00', u: 'https://e.com', m: ['b'] },
      );
      assert.deepEqual(ok, { ok: true, content: { d: '2026-02-28', t: '2026-12-01T18:00:00+01:00', u: 'https://e.com', m: ['b'] } });
      const local = checkForm({ fields: g.fields.filter((x) => x.name === 't') }, { t: '2026-12-01T18:00' });
      assert.ok(local.ok && /Z$/.test(String(local.content.t)), 'a local date-time is sent as UTC (RFC 3339)');
    });
  });

  describe('round trip with a real agent process', () => {
    afterEach(() => killAgents());
    for (const mode of ['v1', 'v2']) {
      it(`${mode}: the handler answers elicitation/create; the answer arrives and validates`, async () => {
        const asked: ElicitationRequest[] = [];
        const h = start(mode, {
          agent: { ignoreCaps: true },
          handlers: {
            elicit: (req) => {
              asked.push(req);
              return Promise.resolve({ action: 'decline' });
            },
          },
        });
        const conn = await h.connecting;
        const { sessionId } = await conn.newSession({ cwd: '/tmp' });
        await conn.prompt(sessionId, [{ type: 'text', text: 'elicit' }]);
        await h.log.waitForAgentText('elicit:');
        assert.equal(asked.length, 1);
        assert.equal(asked[0]!.message, 'Name?');
        assert.ok(h.log.agentTexts().includes('elicit: {"action":"decline"}'), h.log.agentTexts().join('|'));
        h.recorder.assertAllValid(mode === 'v1' ? 1 : 2);
        conn.dispose();
      });
    }
  });
});
