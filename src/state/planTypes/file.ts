// `file` plans: a URI the agent points at; the UI reads the file (src/ui/planTypes/file.ts and
// src/ui/tree/filePlans.ts) and hands its text to the store, whose outline is then the plan's
// structure, as for a Markdown plan.
import { fileName, summarizeOutline, noSteps, type FileView } from '../planSummary';
import { parseMarkdownOutline, type MarkdownOutline } from '../markdownOutline';
import { formatBytes, utf8Length } from '../planBytes';
import type { ContentOf, PlanTypeModel } from './planType';

export type FilePlan = ContentOf<'file'>;

export const filePlanType: PlanTypeModel<FilePlan, MarkdownOutline | undefined> = {
  wireType: 'file',
  derive: (_plan, file) => (file?.text !== undefined ? parseMarkdownOutline(file.text) : undefined),
  summarize(version, plan, outline, file) {
    const name = fileName(plan.uri);
    if (file?.error !== undefined) return noSteps(version, `file ${name} (${file.error})`);
    if (!outline) return noSteps(version, `file ${name}`);
    return summarizeOutline(version, outline, `file ${name}`);
  },
  exportBody(plan, _outline, file?: FileView) {
    const lines = [`File: <${plan.uri.replace(/[<>\s]/g, encodeURIComponent)}>`];
    if (file?.error !== undefined) lines.push('', `_${file.error.replace(/\s+/g, ' ').trim()}_`);
    else if (file?.text !== undefined) lines.push('', file.text);
    return lines.join('\n') + '\n';
  },
  limit(plan, maxBytes) {
    const bytes = utf8Length(plan.uri);
    // A cut URI would name another file: an oversized one is dropped (and then refused).
    return bytes <= maxBytes ? undefined : { plan: { ...plan, uri: '' }, dropped: `its URI of ${formatBytes(bytes)}` };
  },
};
