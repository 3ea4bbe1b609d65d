// The claims of an intent token. Only what verification needs is required; the rest (the policy
// snapshot, role, groups, agent) is kept as sent for display.
import * as z from 'zod';

export const intentClaimsSchema = z.looseObject({
  sub: z.string({ error: 'must be a string' }),
  jti: z.string({ error: 'must be a string' }).min(1, 'must not be empty'),
  iat: z.number({ error: 'must be a number' }).finite(),
  exp: z.number({ error: 'must be a number' }).finite(),
  nbf: z.number({ error: 'must be a number' }).finite().optional(),
  ph: z.string({ error: 'must be a string' }),
  plan: z.unknown().optional(),
  agent: z.unknown().optional(),
  pol: z.unknown().optional(),
  polv: z.unknown().optional(),
  polh: z.unknown().optional(),
  role: z.unknown().optional(),
  groups: z.unknown().optional(),
});

export type IntentClaims = z.output<typeof intentClaimsSchema>;

export { DEFAULT_CLOCK_SKEW_SECONDS, DEFAULT_LIFETIME_SECONDS, MAX_LIFETIME_SECONDS } from './limits';
