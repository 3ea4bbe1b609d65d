// Helpers of the v2 adapter tests (v2Adapter.test.ts, v2AdapterUpdates.test.ts): the session id,
// a session/update envelope, a text block, the check that what the adapter sends passes our v2
// outgoing request schemas, and decoding an update that must give exactly one event (decodeOne)
// or be refused as malformed (decodeRejects).
import * as assert from 'node:assert/strict';
import { ProtocolShapeError, type VersionAdapter } from '../../../../src/protocol/adapter';
import type { SessionEvent } from '../../../../src/protocol/domain';
import { V2_REQUEST_PARAMS } from '../../../../src/protocol/v2/outgoing';

export const S = 'sess_2';
export const update = (u: Record<string, unknown>) => ({ sessionId: S, update: u });
export const text = (t: string) => ({ type: 'text', text: t });
export const sends = (method: string, params: unknown) => {
  const r = V2_REQUEST_PARAMS[method].safeParse(params);
  assert.ok(r.success, `${method} params fail the v2 schema: ${JSON.stringify(params)}`);
};

export const decodeOne = (a: VersionAdapter, u: Record<string, unknown>): SessionEvent => {
  const evs = a.decodeUpdate(update(u));
  assert.equal(evs.length, 1);
  return evs[0];
};
export const decodeRejects = (a: VersionAdapter, u: Record<string, unknown>) => assert.throws(() => a.decodeUpdate(update(u)), ProtocolShapeError);
