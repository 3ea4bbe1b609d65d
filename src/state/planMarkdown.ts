// Markdown renderings of a plan: the checklist copied to the clipboard, exported, previewed and
// compared between revisions. Agent text is flattened to one line per step; it is not trusted
// anywhere these renderings go (the clipboard, files, VS Code's sanitizing preview).
import type { PlanContent } from '../protocol/domain';
import type { MarkdownOutline } from './markdownPlan';
import { statusLabel, summarizePlan, type FileView, type PlanSummary } from './planSummary';

export interface RenderablePlan {
  readonly planId: string;
  readonly plan: PlanContent;
  readonly summary?: PlanSummary;
  readonly version?: number;
  readonly file?: FileView;
  readonly outline?: MarkdownOutline;
  /** Added to the header line, e.g. a revision time. */
  readonly note?: string;
}

/**
 * `## <planId> · v3 — 1/5 done, 1 blocked` then the content: an items plan as a checklist
 * (`- [x] step`, `- [ ] step`, cancelled `- [x] ~~step~~`, other statuses named in italics),
 * a Markdown plan verbatim, a file plan's URI and loaded text, an unknown type as fenced JSON.
 */
export function planToMarkdown(p: RenderablePlan): string {
  const summary = p.summary ?? summarizePlan(p.version ?? 1, p.plan, p.file, p.outline);
  const header = `## ${oneLine(p.planId)} · ${summary.header}${p.note ? ` (${oneLine(p.note)})` : ''}`;
  return `${header}\n\n${body(p)}`.replace(/\n*$/, '\n');
}

function body(p: RenderablePlan): string {
  const plan = p.plan;
  switch (plan.type) {
    case 'items':
      if (plan.entries.length === 0) return '_No steps._\n';
      return plan.entries.map((e) => checklistLine(e.content, e.status)).join('\n') + '\n';
    case 'markdown':
      return plan.content + '\n';
    case 'file': {
      const lines = [`File: <${plan.uri.replace(/[<>\s]/g, encodeURIComponent)}>`];
      if (p.file?.error !== undefined) lines.push('', `_${oneLine(p.file.error)}_`);
      else if (p.file?.text !== undefined) lines.push('', p.file.text);
      return lines.join('\n') + '\n';
    }
    default:
      return fenced('json', JSON.stringify(plan.raw, null, 2));
  }
}

export function checklistLine(content: string, status: string): string {
  const text = oneLine(content) || '(empty)';
  switch (status) {
    case 'completed': return `- [x] ${text}`;
    case 'cancelled': return `- [x] ~~${text}~~`;
    case 'pending': return `- [ ] ${text}`;
    default: return `- [ ] ${text} _(${statusLabel(status)})_`;
  }
}

/** A fenced code block whose fence is longer than any backtick run inside. */
export function fenced(lang: string, text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text}\n${fence}\n`;
}

function oneLine(s: string): string { return s.replace(/\s+/g, ' ').trim(); }
