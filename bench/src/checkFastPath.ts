// Checks the v2 fast path (src/protocol/v2/fastPath.ts) against the zod schemas it stands in for:
// on every update of the benchmark stream, and on random near-miss shapes (fast-check), the fast
// path either declines (undefined) or yields exactly what the schema yields — same JSON, same
// key order, same `_meta` / raw values by reference. Exits non-zero on any difference.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as fc from 'fast-check';
import { fastUpdate } from '../../src/protocol/v2/fastPath';
import { v2UpdateSchema } from '../../src/protocol/v2/updates';
import { report } from './common';

type Wire = Record<string, unknown>;
let checked = 0;
let fast = 0;

function check(tag: string, update: Wire): void {
  checked++;
  const f = fastUpdate(tag, update);
  if (f === undefined) return;
  fast++;
  const r = v2UpdateSchema(tag)!.safeParse(update);
  if (!r.success) throw new Error(`fast path accepted what the schema rejects: ${JSON.stringify(update)}`);
  assert.equal(JSON.stringify(f), JSON.stringify(r.data), `differs for ${JSON.stringify(update)}`);
  assert.deepStrictEqual(f, r.data);
  sameRefs(f, r.data, update);
}

/** `_meta`, rawInput and rawOutput are the wire objects themselves on both paths. */
function sameRefs(a: unknown, b: unknown, what: unknown): void {
  if (typeof a !== 'object' || a === null) return;
  for (const k of Object.keys(a)) {
    const x = (a as Wire)[k];
    const y = (b as Wire)[k];
    if ((k === '_meta' || k === 'rawInput' || k === 'rawOutput') && x !== y) throw new Error(`${k} copied for ${JSON.stringify(what)}`);
    sameRefs(x, y, what);
  }
}

// 1. The benchmark stream.
const [streamFile] = process.argv.slice(2);
for (const line of readFileSync(streamFile, 'utf8').split('\n')) {
  if (!line) continue;
  const u = (JSON.parse(line) as { params: { update: Wire } }).params.update;
  check(u.sessionUpdate as string, u);
}
const streamChecked = checked;
const streamFast = fast;

// 2. Near misses: each field drawn from its expected type and from wrong ones.
const any = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.string({ maxLength: 4 }),
  fc.integer({ min: -3, max: 3 }),
  fc.double(),
  fc.boolean(),
  fc.constant([]),
  fc.constant({}),
  fc.constant(2 ** 60),
  fc.constant(-0),
);
const maybe = <T>(a: fc.Arbitrary<T>) => fc.oneof({ weight: 3, arbitrary: a }, { weight: 1, arbitrary: any });
const meta = fc.option(fc.oneof(fc.constant({ k: 1 }), fc.constant(null), fc.constant([1]), fc.constant('x')), { nil: undefined });
const textBlock = fc.record(
  {
    type: maybe(fc.constantFrom('text', 'image', 'resource_link', '_x')),
    text: maybe(fc.string({ maxLength: 6 })),
    annotations: fc.option(fc.oneof(fc.constant({ priority: 1 }), fc.constant(null), fc.constant(3)), { nil: undefined }),
    _meta: meta,
  },
  { requiredKeys: [] },
);
const chunk = fc.record(
  { messageId: maybe(fc.string({ maxLength: 4 })), content: maybe(textBlock), _meta: meta, extra: fc.option(fc.string(), { nil: undefined }) },
  { requiredKeys: [] },
);
const entry = fc.record(
  {
    content: maybe(fc.string({ maxLength: 5 })),
    priority: maybe(fc.constantFrom('high', 'low', '_x')),
    status: maybe(fc.constantFrom('pending', 'completed', '_blocked')),
    _meta: meta,
  },
  { requiredKeys: [] },
);
const plan = fc.record(
  {
    type: maybe(fc.constantFrom('items', 'markdown', 'file', '_intent')),
    planId: maybe(fc.string({ maxLength: 4 })),
    entries: maybe(fc.array(maybe(entry), { maxLength: 4 })),
    content: maybe(fc.string()),
    uri: maybe(fc.string()),
    _meta: meta,
  },
  { requiredKeys: [] },
);
const planUpdate = fc.record({ plan: maybe(plan), _meta: meta }, { requiredKeys: [] });
const toolItem = fc.oneof(
  fc.record({ type: maybe(fc.constant('content')), content: maybe(textBlock), _meta: meta }, { requiredKeys: [] }),
  fc.record({ type: maybe(fc.constant('terminal')), terminalId: maybe(fc.string({ maxLength: 4 })), _meta: meta }, { requiredKeys: [] }),
  fc.record({ type: fc.constant('diff'), changes: fc.constant([{ operation: 'add', path: '/a' }]) }),
);
const loc = fc.record({ path: maybe(fc.string({ maxLength: 4 })), line: maybe(fc.oneof(fc.nat(), fc.constant(null))), _meta: meta }, { requiredKeys: [] });
const toolUpdate = fc.record(
  {
    toolCallId: maybe(fc.string({ maxLength: 4 })),
    name: maybe(fc.string()),
    title: maybe(fc.oneof(fc.string(), fc.constant(null))),
    kind: maybe(fc.constantFrom('edit', 'read')),
    status: maybe(fc.constantFrom('pending', 'completed', null)),
    content: maybe(fc.oneof(fc.array(maybe(toolItem), { maxLength: 3 }), fc.constant(null))),
    locations: maybe(fc.oneof(fc.array(maybe(loc), { maxLength: 3 }), fc.constant(null))),
    rawInput: fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined }),
    rawOutput: fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined }),
    _meta: meta,
  },
  { requiredKeys: [] },
);

/** Drops undefined members, as a JSON wire object never has them. */
const wire = (o: object): Wire => JSON.parse(JSON.stringify(o)) as Wire;
const runs = 20_000;
fc.assert(
  fc.property(fc.constantFrom('agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk'), chunk, (tag, u) => check(tag, wire(u))),
  { numRuns: runs },
);
fc.assert(
  fc.property(planUpdate, (u) => check('plan_update', wire(u))),
  { numRuns: runs },
);
fc.assert(
  fc.property(toolUpdate, (u) => check('tool_call_update', wire(u))),
  { numRuns: runs },
);

report({ section: 'fastPathCheck', ok: true, streamUpdates: streamChecked, streamFast, fuzzed: checked - streamChecked, fuzzedFast: fast - streamFast });
