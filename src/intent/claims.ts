// The claims of an intent token. Only what verification needs is required; the rest (the policy
// snapshot, role, groups, agent) is kept as sent for display.
import * as z from 'zod/mini';
import '../protocol/common/zodMessages';

export const intentClaimsSchema = z.looseObject({
  sub: z.string({ error: 'must be a string' }),
  jti: z.string({ error: 'must be a string' }).check(z.minLength(1, 'must not be empty')),
  iat: z.number({ error: 'must be a number' }),
  exp: z.number({ error: 'must be a number' }),
  nbf: z.optional(z.number({ error: 'must be a number' })),
  ph: z.string({ error: 'must be a string' }),
  plan: z.optional(z.unknown()),
  agent: z.optional(z.unknown()),
  pol: z.optional(z.unknown()),
  polv: z.optional(z.unknown()),
  polh: z.optional(z.unknown()),
  role: z.optional(z.unknown()),
  groups: z.optional(z.unknown()),
});

export type IntentClaims = z.output<typeof intentClaimsSchema>;

export { DEFAULT_CLOCK_SKEW_SECONDS, DEFAULT_LIFETIME_SECONDS, MAX_LIFETIME_SECONDS } from './limits';
