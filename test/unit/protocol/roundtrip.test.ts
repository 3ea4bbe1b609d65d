// What this client does not understand still reaches the event stream unchanged: unknown
// variants, custom values and `_meta`, in both versions. Each message goes through JSON text
// (as on the wire) and the decoded payload is compared with a separate parse of that text.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { createAdapter, type VersionAdapter } from '../../../src/protocol/adapter';
import type { JsonObject, SessionEvent } from '../../../src/protocol/domain';

const S = 'sess_rt';
const RUNS = { numRuns: 60 };

/** Extra fields with arbitrary JSON values, never clashing with the fields a variant defines. */
const extras = (reserved: string[]) =>
  fc.dictionary(
    fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !reserved.includes(k) && k !== '__proto__'),
    fc.jsonValue({ maxDepth: 3 }),
    { maxKeys: 4, noNullPrototype: true },
  );
const meta = fc.dictionary(
  fc.string({ maxLength: 8 }).filter((k) => k !== '__proto__'),
  fc.jsonValue({ maxDepth: 3 }),
  { maxKeys: 3, noNullPrototype: true },
);
const customTag = fc.string({ minLength: 1, maxLength: 10 }).map((s) => `_${s}`);

/** Sends `update` through JSON and returns [events, a fresh parse of what was sent]. */
function wire(a: VersionAdapter, update: JsonObject): [SessionEvent[], JsonObject] {
  const text = JSON.stringify({ sessionId: S, update });
  const events = a.decodeUpdate(JSON.parse(text));
  return [events, (JSON.parse(text) as { update: JsonObject }).update];
}

function only<K extends SessionEvent['kind']>(events: SessionEvent[], kind: K): Extract<SessionEvent, { kind: K }> {
  assert.equal(events.length, 1);
  assert.equal(events[0].kind, kind);
  return events[0] as Extract<SessionEvent, { kind: K }>;
}

for (const version of [1, 2] as const) {
  describe(`round trip of what the client does not understand (v${version})`, () => {
    const adapter = () => createAdapter(version);

    it('an unknown sessionUpdate reaches the stream whole', () => {
      fc.assert(
        fc.property(customTag, extras(['sessionUpdate']), meta, (tag, more, m) => {
          const [events, sent] = wire(adapter(), { sessionUpdate: tag, ...more, _meta: m });
          assert.deepEqual(only(events, 'unknown'), { sessionId: S, kind: 'unknown', updateType: tag, raw: sent });
        }),
        RUNS,
      );
    });

    it('an unknown plan type (`_custom`…) keeps its payload and planId', () => {
      fc.assert(
        fc.property(customTag, fc.string(), extras(['type', 'planId']), (type, planId, more) => {
          const [events, sent] = wire(adapter(), { sessionUpdate: 'plan_update', plan: { type, planId, ...more } });
          assert.deepEqual(only(events, 'plan_update').plan, { type: 'unknown', planId, rawType: type, raw: sent.plan });
        }),
        RUNS,
      );
    });

    it('custom entry statuses and priorities are kept verbatim, with every _meta', () => {
      const entry = fc.record({
        content: fc.string(),
        priority: fc.oneof(fc.constantFrom('high', 'medium', 'low'), customTag),
        status: fc.oneof(fc.constantFrom('pending', 'in_progress', 'completed', 'cancelled'), customTag),
        _meta: meta,
      });
      fc.assert(
        fc.property(fc.array(entry, { maxLength: 5 }), meta, meta, (entries, updateMeta, planMeta) => {
          const plan =
            version === 1
              ? { sessionUpdate: 'plan', entries, _meta: updateMeta }
              : { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p', entries, _meta: planMeta }, _meta: updateMeta };
          const [events, sent] = wire(adapter(), plan);
          const e = only(events, 'plan_update');
          const sentEntries = version === 1 ? sent.entries : (sent.plan as JsonObject).entries;
          assert.deepEqual(e.plan.type === 'items' && e.plan.entries, sentEntries);
          assert.deepEqual(e._meta, sent._meta);
          if (version === 2) assert.deepEqual(e.plan.type === 'items' && e.plan._meta, (sent.plan as JsonObject)._meta);
        }),
        RUNS,
      );
    });

    it('an unknown content block keeps its payload (chunks, tool call content)', () => {
      fc.assert(
        fc.property(customTag, extras(['type']), meta, (type, more, m) => {
          const block = { type, ...more };
          const [events, sent] = wire(adapter(), { sessionUpdate: 'agent_message_chunk', messageId: 'm', content: block, _meta: m });
          const chunk = only(events, 'message_chunk');
          assert.deepEqual(chunk.content, { type: 'unknown', rawType: type, raw: sent.content });
          assert.deepEqual(chunk._meta, sent._meta);
          const [tc, sentTc] = wire(adapter(), {
            sessionUpdate: 'tool_call_update',
            toolCallId: 't',
            content: [
              { type: 'content', content: block },
              { type, ...more },
            ],
          });
          const content = only(tc, 'tool_call').fields.content;
          const sentContent = sentTc.content as JsonObject[];
          assert.deepEqual(content, [
            { type: 'content', content: { type: 'unknown', rawType: type, raw: sentContent[0].content } },
            { type: 'unknown', rawType: type, raw: sentContent[1] },
          ]);
        }),
        RUNS,
      );
    });

    it('_meta on known blocks, tool calls and permission requests is kept; a malformed _meta is dropped', () => {
      fc.assert(
        fc.property(meta, meta, (m1, m2) => {
          const a = adapter();
          const [events, sent] = wire(a, {
            sessionUpdate: 'tool_call_update',
            toolCallId: 't',
            _meta: m1,
            content: [{ type: 'content', content: { type: 'text', text: 'x', _meta: m2 }, _meta: m2 }],
          });
          const fields = only(events, 'tool_call').fields;
          assert.deepEqual(fields._meta, sent._meta);
          const m2Sent = (sent.content as JsonObject[])[0]._meta;
          assert.deepEqual(fields.content, [{ type: 'content', content: { type: 'text', text: 'x', _meta: m2Sent }, _meta: m2Sent }]);
          const toolCall = { toolCallId: 't', title: 'T' };
          const params = JSON.parse(
            JSON.stringify(
              version === 1
                ? { sessionId: S, toolCall, options: [{ optionId: 'o', name: 'O', kind: 'allow_once', _meta: m2 }], _meta: m1 }
                : {
                    sessionId: S,
                    title: 'T',
                    subject: { type: 'tool_call', toolCall },
                    options: [{ optionId: 'o', name: 'O', kind: 'allow_once', _meta: m2 }],
                    _meta: m1,
                  },
            ),
          ) as JsonObject;
          const req = a.decodePermissionRequest(params);
          assert.deepEqual(req._meta, params._meta);
          assert.deepEqual(req.options[0]._meta, (params.options as JsonObject[])[0]._meta);
        }),
        RUNS,
      );
      const [bad] = wire(adapter(), { sessionUpdate: 'plan_removed', planId: 'p', _meta: 'not an object' });
      assert.deepEqual(bad, [{ sessionId: S, kind: 'plan_removed', planId: 'p' }]);
    });

    if (version === 2) {
      it('an unknown state keeps the whole update', () => {
        fc.assert(
          fc.property(fc.oneof(customTag, fc.constant('unknown')), extras(['sessionUpdate', 'state', 'stopReason', 'error', 'usage']), (state, more) => {
            const [events, sent] = wire(adapter(), { sessionUpdate: 'state_update', state, ...more });
            assert.deepEqual(only(events, 'state'), { sessionId: S, kind: 'state', state, raw: sent });
          }),
          RUNS,
        );
      });

      it('unknown tool-call content, diff operations, permission subjects and config option types are kept', () => {
        fc.assert(
          fc.property(customTag, extras(['type', 'operation', 'path', 'oldPath', 'fileType', 'mimeType', 'configId', 'name']), (tag, more) => {
            const a = adapter();
            const [cfg, sentCfg] = wire(a, { sessionUpdate: 'config_option_update', configOptions: [{ configId: 'c', name: 'C', type: tag, ...more }] });
            assert.deepEqual(only(cfg, 'config_options').options, [{ kind: 'unknown', id: 'c', name: 'C', raw: (sentCfg.configOptions as JsonObject[])[0] }]);
            const subject = JSON.parse(JSON.stringify({ type: tag, ...more })) as JsonObject;
            const req = a.decodePermissionRequest({ sessionId: S, title: 't', subject, options: [] });
            assert.deepEqual(req.subject, { type: 'unknown', rawType: tag, raw: JSON.parse(JSON.stringify(subject)) });
            const [diff] = wire(a, {
              sessionUpdate: 'tool_call_content_chunk',
              toolCallId: 't',
              content: { type: 'diff', changes: [{ operation: tag, path: '/p' }] },
            });
            assert.deepEqual(only(diff, 'tool_call_content_chunk').content, { type: 'diff', changes: [{ operation: tag, path: '/p' }] });
          }),
          RUNS,
        );
      });
    }
  });
}
