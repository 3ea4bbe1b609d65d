// The plan types, in one table. A plan type is one module here (summary, derived data, Markdown
// export, byte cap) plus one module under src/ui/planTypes/ (tree rows, icon, open); adding a type
// is those two files and one line in each table. The UI table is keyed by PlanKind, so the
// compiler asks for the UI side of every type registered here.
//
// A plan is of the type whose `wireType` is its wire type (`items`, `markdown`, `file`) or, for a
// plan that arrives as `unknown`, its raw `type` when that is a custom name (`_intent`); any other
// plan is `unknown`.
import type { PlanContent } from '../../protocol/domain';
import type { FileView, PlanSummary } from '../planSummary';
import { filePlanType } from './file';
import { intentPlanType } from './intent';
import { itemsPlanType } from './items';
import { markdownPlanType } from './markdown';
import type { PlanTypeModel } from './planType';
import { unknownPlanType } from './unknown';

export const PLAN_TYPES = {
  items: itemsPlanType,
  markdown: markdownPlanType,
  file: filePlanType,
  intent: intentPlanType,
  unknown: unknownPlanType,
};

type Models = typeof PLAN_TYPES;
export type PlanKind = keyof Models;
type PlanOf<K extends PlanKind> = Models[K] extends PlanTypeModel<infer P, infer _D> ? P : never;
type DataOf<K extends PlanKind> = Models[K] extends PlanTypeModel<infer _P, infer D> ? D : never;

/** A plan with its type and what was derived from it (kept with the revision: parse once). */
export type PlanViewOf<K extends PlanKind> = { readonly kind: K; readonly plan: PlanOf<K>; readonly data: DataOf<K> };
export type PlanView = { [K in PlanKind]: PlanViewOf<K> }[PlanKind];

const byWireType = new Map<string, PlanKind>();
for (const k of Object.keys(PLAN_TYPES) as PlanKind[]) {
  const w = PLAN_TYPES[k].wireType;
  if (w !== undefined) byWireType.set(w, k);
}

/** The type of a plan. */
export function planKind(plan: PlanContent): PlanKind {
  if (plan.type !== 'unknown') return byWireType.get(plan.type) ?? 'unknown';
  return plan.rawType.startsWith('_') ? (byWireType.get(plan.rawType) ?? 'unknown') : 'unknown';
}

// The one place that joins a kind to its module: `planKind` picked the module whose wireType
// matches the plan, so the plan is that module's content variant.
function model(kind: PlanKind): PlanTypeModel<PlanContent, unknown> {
  return PLAN_TYPES[kind] as unknown as PlanTypeModel<PlanContent, unknown>;
}

/** The plan's type and derived data (parses a Markdown plan: call once per revision). */
export function viewPlan(plan: PlanContent, file?: FileView): PlanView {
  const kind = planKind(plan);
  return { kind, plan, data: model(kind).derive(plan, file) } as PlanView;
}

export function summarizeView(version: number, view: PlanView, file?: FileView): PlanSummary {
  return model(view.kind).summarize(version, view.plan, view.data, file);
}

/** A revision's view and summary, as the plan store keeps them (parses it: call once per revision). */
export function describePlan(version: number, plan: PlanContent, file?: FileView): { view: PlanView; summary: PlanSummary } {
  const view = viewPlan(plan, file);
  return { view, summary: summarizeView(version, view, file) };
}

/** Summary of any plan (parses it: the store keeps the result, use that). */
export function summarizePlan(version: number, plan: PlanContent, file?: FileView): PlanSummary {
  return summarizeView(version, viewPlan(plan, file), file);
}

export function exportBody(view: PlanView, file?: FileView): string {
  return model(view.kind).exportBody(view.plan, view.data, file);
}

/** The plan cut to `maxBytes` by its type, and what was dropped; undefined when it fits. */
export function limitPlan(plan: PlanContent, maxBytes: number): { plan: PlanContent; dropped: string } | undefined {
  return model(planKind(plan)).limit(plan, maxBytes);
}
