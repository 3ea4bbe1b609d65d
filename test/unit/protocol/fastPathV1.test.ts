// The v1 fast path (src/protocol/v1/fastPath.ts) against the zod schemas it stands in for: the same
// result, key order included, for every plain shape; undefined (the schema decides) for the rest.
import { strict as assert } from 'node:assert';
import { fastV1Update } from '../../../src/protocol/v1/fastPath';
import { v1UpdateSchema } from '../../../src/protocol/v1/updates';

type Wire = Record<string, unknown>;

function same(tag: string, update: Wire): unknown {
  const fast = fastV1Update(tag, update);
  assert.ok(fast, `taken by the fast path: ${JSON.stringify(update)}`);
  assert.equal(JSON.stringify(fast), JSON.stringify(v1UpdateSchema(tag)!.parse(update)));
  return fast;
}

function left(tag: string, update: Wire): void {
  assert.equal(fastV1Update(tag, update), undefined, `left to the schema: ${JSON.stringify(update)}`);
  v1UpdateSchema(tag)!.safeParse(update); // the schema still has its say (and must not throw)
}

describe('v1 fast path: plans and message chunks', () => {
  it('decodes plans as the schema does, keeping entries that are already their decoding', () => {
    const wire = [
      { content: 'a', priority: 'high', status: 'pending' },
      { content: 'b', priority: 'low', status: 'completed', _meta: { x: 1 } },
    ];
    const got = same('plan', { sessionUpdate: 'plan', entries: wire }) as { body: { plan: { entries: unknown[] } } };
    assert.equal(got.body.plan.entries, wire, 'the wire array itself');
    same('plan', { sessionUpdate: 'plan', entries: [], _meta: { trace: 1 } });
    same('plan', {
      sessionUpdate: 'plan',
      entries: [
        { status: 'pending', content: 'b', priority: 'low', extra: 1 },
        { content: 'c', priority: 'x', status: 'y' },
      ],
    });
    same('plan', { sessionUpdate: 'plan', entries: [{ content: 'd', priority: 'low', status: 'pending', _meta: null }], _meta: null });
  });

  it('decodes opted-in plan updates (items) as the schema does; leaves other plan types to it', () => {
    const entries = [{ content: 'a', priority: 'high', status: 'pending' }];
    same('plan_update', { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p1', entries } });
    same('plan_update', { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p1', entries, _meta: { m: 1 } }, _meta: { u: 1 } });
    left('plan_update', { sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'p1', content: '# x' } });
    left('plan_update', { sessionUpdate: 'plan_update', plan: { type: 'items', entries } });
  });

  it('leaves plans with an entry the schema would skip, or without entries, to the schema', () => {
    left('plan', { sessionUpdate: 'plan', entries: [{ content: 1, priority: 'low', status: 'pending' }] });
    left('plan', { sessionUpdate: 'plan', entries: [null] });
    left('plan', { sessionUpdate: 'plan' });
    left('plan', { sessionUpdate: 'plan', entries: 'no' });
  });

  it('decodes text chunks of every role as the schema does, with or without a message id', () => {
    for (const tag of ['agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk']) {
      same(tag, { sessionUpdate: tag, content: { type: 'text', text: 'hi' } });
      same(tag, { sessionUpdate: tag, content: { type: 'text', text: 'hi', _meta: { a: 1 } }, messageId: 'm1', _meta: { b: 2 } });
      same(tag, { sessionUpdate: tag, content: { type: 'text', text: '' }, messageId: null, _meta: null });
    }
  });

  it('leaves other content, annotations and odd message ids to the schema', () => {
    const tag = 'agent_message_chunk';
    left(tag, { sessionUpdate: tag, content: { type: 'image', data: 'x', mimeType: 'image/png' } });
    left(tag, { sessionUpdate: tag, content: { type: 'text', text: 'a', annotations: { priority: 1 } } });
    left(tag, { sessionUpdate: tag, content: { type: 'text', text: 'a' }, messageId: 7 });
    left(tag, { sessionUpdate: tag, content: { type: 'text', text: 3 } });
    left('tool_call', { sessionUpdate: 'tool_call', toolCallId: 't', title: 'x' });
  });
});
