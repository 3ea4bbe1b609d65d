// `markdown` plans: Markdown text whose headings and task checkboxes are its outline (parsed once
// per revision); the tasks are the steps. Exported verbatim.
import { formatBytes, headUtf8, utf8Length } from '../planBytes';
import { parseMarkdownOutline, type MarkdownOutline } from '../markdownOutline';
import { summarizeOutline } from '../planSummary';
import type { ContentOf, PlanTypeModel } from './planType';

export type MarkdownPlan = ContentOf<'markdown'>;

export const markdownPlanType: PlanTypeModel<MarkdownPlan, MarkdownOutline> = {
  wireType: 'markdown',
  derive: (plan) => parseMarkdownOutline(plan.content),
  summarize: (version, _plan, outline) => summarizeOutline(version, outline, 'markdown, no checklist'),
  exportBody: (plan) => plan.content + '\n',
  limit(plan, maxBytes) {
    if (plan.content.length <= maxBytes / 3) return undefined; // at most 3 UTF-8 bytes per UTF-16 unit
    const bytes = utf8Length(plan.content);
    if (bytes <= maxBytes) return undefined;
    const head = headUtf8(plan.content, maxBytes);
    return { plan: { ...plan, content: head }, dropped: `the last ${formatBytes(bytes - utf8Length(head))} of the text` };
  },
};
