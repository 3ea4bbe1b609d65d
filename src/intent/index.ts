// Intent plans: declared tool plans with signed intent tokens (see docs/INTENT.md). No `vscode`.
export { canonicalJson, decodePlanHash, planHash, planHashBytes, type HashEncoding } from './canonical';
export type { CallVerdict, CannotCheckReason, NotInPlanReason } from './checkCall';
export { DEFAULT_CLOCK_SKEW_SECONDS, DEFAULT_LIFETIME_SECONDS, MAX_LIFETIME_SECONDS, type IntentClaims } from './claims';
export { DECLARE_PLAN_TOOL, DECLARED_PLAN_ID, DeclaredPlans } from './declarePlan';
export { globMatch, jsonEqual, regexHazard } from './constraints';
export { JwksSource, parseJwksLocation, type JwksLoad, type JwksLocation, type JwksSourceOptions } from './jwksSource';
export { generateSigningKey, makeJwks, parseJwks, type Jwks, type PublicJwk, type SigningKey } from './keys';
export {
  DEFAULT_MAX_CALLS,
  MAX_STEPS,
  parseIntentPlan,
  parseIntentPlanBody,
  type ArgConstraint,
  type IntentPayload,
  type IntentPlan,
  type IntentStep,
  type ParseResult,
} from './schema';
export { signIntentToken, type IntentClaimsInput, type SignedIntentToken } from './sign';
export { resolveToolName, TOOL_NAME_META_PATHS } from './toolName';
export { IntentTracker, type IntentSnapshot, type IntentTrackerOptions, type IntentUpdateResult, type StepUsage, type ToolCallObservation } from './tracker';
export { isUlid, ulid } from './ulid';
export { verificationAt, verifyIntentToken, type IntentVerification, type VerificationState, type VerifyOptions } from './verify';
export { INTENT_PLAN_TYPE, intentPayloadOf } from './planType';
