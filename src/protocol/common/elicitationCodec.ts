// The elicitation codec of both adapters (elicitation.ts), loaded the first time an agent sends
// `elicitation/create` or `elicitation/complete` (dist/elicitation-wire.js), so activation does not
// parse it. Each function is elicitation.ts's own, called through the loader.
import { lazyModule } from '../../common/lazy';
import type { JsonObject } from '../domain';
import type { ElicitationRequest, ElicitationResponse } from '../elicitation';
import type * as Wire from './elicitation';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously (src/common/lazy.ts)
const wire = lazyModule('elicitation-wire.js', () => require('./elicitation') as typeof Wire);

export function decodeElicitation(params: unknown): ElicitationRequest {
  return wire().decodeElicitation(params);
}

export function decodeElicitationComplete(params: unknown): string | undefined {
  return wire().decodeElicitationComplete(params);
}

export function encodeElicitationResponse(r: ElicitationResponse): JsonObject {
  return wire().encodeElicitationResponse(r);
}
