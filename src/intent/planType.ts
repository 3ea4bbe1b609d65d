// Which plans are intent plans. Kept apart from the rest of src/intent so the extension can tell
// an intent plan without loading the intent checker (dist/intent.js, loaded on first use).
import type { PlanContent } from '../protocol/domain';

/** The plan type of our intent extension. */
export const INTENT_PLAN_TYPE = '_intent';

/** The raw `_intent` payload of a plan content, or undefined for any other plan. */
export function intentPayloadOf(plan: PlanContent): Record<string, unknown> | undefined {
  return plan.type === 'unknown' && plan.rawType === INTENT_PLAN_TYPE ? plan.raw : undefined;
}
