// A plan exported as Markdown: copied to the clipboard, saved, previewed and compared between
// revisions. The body is the plan type's own (src/state/planTypes/); agent text is not trusted
// anywhere these renderings go (the clipboard, files, VS Code's sanitizing preview).
import type { PlanContent } from '../protocol/domain';
import type { FileView, PlanSummary } from './planSummary';
import { exportBody, summarizeView, viewPlan, type PlanView } from './planTypes';
import { oneLine } from './planTypes/markdownText';

export { checklistLine, fenced } from './planTypes/markdownText';

export interface ExportablePlan {
  readonly planId: string;
  readonly plan: PlanContent;
  /** The stored summary and view (derived once per revision); computed here when absent. */
  readonly summary?: PlanSummary;
  readonly view?: PlanView;
  readonly version?: number;
  readonly file?: FileView;
  /** Added to the header line, e.g. a revision time. */
  readonly note?: string;
  /** What the store left out of this revision (over its byte cap). */
  readonly truncated?: string;
}

/**
 * `## <planId> · v3 — 1/5 done, 1 blocked` then the content: an items plan as a checklist
 * (`- [x] step`, `- [ ] step`, cancelled `- [x] ~~step~~`, other statuses named in italics),
 * a Markdown plan verbatim, a file plan's URI and loaded text, an unknown type as fenced JSON.
 */
export function planToMarkdown(p: ExportablePlan): string {
  const view = p.view ?? viewPlan(p.plan, p.file);
  const summary = p.summary ?? summarizeView(p.version ?? 1, view, p.file);
  const header = `## ${oneLine(p.planId)} · ${summary.header}${p.note ? ` (${oneLine(p.note)})` : ''}`;
  const cut = p.truncated ? `\n\n_Truncated: ${oneLine(p.truncated)} left out (over the size cap)._` : '';
  return endWithOneNewline(`${header}${cut}\n\n${exportBody(view, p.file)}`);
}

/** The text with its trailing line breaks replaced by exactly one (a linear scan from the end). */
function endWithOneNewline(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 10) end--;
  return s.slice(0, end) + '\n';
}
