// `_intent` plans (an agent's declared goal and allowed tool calls, backed by a signed token): to
// the store an unknown type kept whole; the verification and the call checks are the intent
// layer's (src/intent/, src/ui/intent/), and the tree shows them (src/ui/planTypes/intent.ts).
import { INTENT_PLAN_TYPE } from '../../intent/planType';
import type { PlanTypeModel } from './planType';
import { unknownPlanType, type UnknownPlan } from './unknown';

export const intentPlanType: PlanTypeModel<UnknownPlan, undefined> = {
  ...unknownPlanType,
  wireType: INTENT_PLAN_TYPE,
};
