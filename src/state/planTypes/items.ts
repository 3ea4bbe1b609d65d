// `items` plans: a list of entries, each with content, priority and status. Entries are the steps;
// the current step is the first one in progress. Exported as a checklist.
import { checklistLine } from './markdownText';
import { jsonBytes } from '../planBytes';
import { summarizeSteps } from '../planSummary';
import { stepMeta } from '../stepMeta';
import type { ContentOf, PlanTypeModel } from './planType';

export type ItemsPlan = ContentOf<'items'>;

export const itemsPlanType: PlanTypeModel<ItemsPlan, undefined> = {
  wireType: 'items',
  derive: () => undefined,
  summarize: (version, plan) => summarizeSteps(version, plan.entries),
  exportBody(plan) {
    if (plan.entries.length === 0) return '_No steps._\n';
    return plan.entries.map((e) => checklistLine(e.content, e.status, stepMeta(e._meta))).join('\n') + '\n';
  },
  limit(plan, maxBytes) {
    let used = 0;
    let keep = 0;
    for (const e of plan.entries) {
      const n = jsonBytes(e, maxBytes);
      if (used + n > maxBytes) break;
      used += n;
      keep++;
    }
    if (keep === plan.entries.length) return undefined;
    const dropped = plan.entries.length - keep;
    return { plan: { ...plan, entries: plan.entries.slice(0, keep) }, dropped: `the last ${dropped} of ${plan.entries.length} entries` };
  },
};
