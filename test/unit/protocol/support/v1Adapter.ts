// Helpers of the v1 adapter tests (v1Adapter.test.ts, v1AdapterUpdates.test.ts): the session id,
// a session/update envelope, decoding an update that must give exactly one event, a text block,
// and the check that what the adapter sends passes our v1 outgoing request schemas.
import * as assert from 'node:assert/strict';
import type { VersionAdapter } from '../../../../src/protocol/adapter';
import type { SessionEvent } from '../../../../src/protocol/domain';
import { V1_REQUEST_PARAMS } from '../../../../src/protocol/v1/outgoing';

export const S = 'sess_1';
export const update = (u: Record<string, unknown>) => ({ sessionId: S, update: u });
export const one = (a: VersionAdapter, u: Record<string, unknown>): SessionEvent => {
  const evs = a.decodeUpdate(update(u));
  assert.equal(evs.length, 1);
  return evs[0];
};
export const text = (t: string) => ({ type: 'text', text: t });
export const sends = (method: string, params: unknown) => {
  const r = V1_REQUEST_PARAMS[method].safeParse(params);
  assert.ok(r.success, `${method} params fail the v1 schema: ${JSON.stringify(params)}`);
};
