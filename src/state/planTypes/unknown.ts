// Plans of a type this extension does not know: kept whole (`raw`), shown field by field, exported
// as fenced JSON. The fallback of the registry (no wire type of its own).
import { fenced } from './markdownText';
import { formatBytes, jsonBytes } from '../planBytes';
import { noSteps, truncate } from '../planSummary';
import type { ContentOf, PlanTypeModel } from './planType';

export type UnknownPlan = ContentOf<'unknown'>;

export const unknownPlanType: PlanTypeModel<UnknownPlan, undefined> = {
  wireType: undefined,
  derive: () => undefined,
  summarize: (version, plan) => noSteps(version, `${truncate(plan.rawType, 32)} plan`),
  exportBody: (plan) => fenced('json', JSON.stringify(plan.raw, null, 2)),
  limit: limitRaw,
};

/** An unknown plan over the cap keeps its `type` and `planId` only. */
export function limitRaw<P extends UnknownPlan>(plan: P, maxBytes: number): { plan: P; dropped: string } | undefined {
  const bytes = jsonBytes(plan.raw, maxBytes + 1);
  if (bytes <= maxBytes) return undefined;
  return {
    plan: { ...plan, raw: { type: plan.rawType, planId: plan.planId } },
    dropped: `every field but type and planId (more than ${formatBytes(maxBytes)})`,
  };
}
