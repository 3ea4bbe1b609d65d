// Small Markdown writers shared by the plan types' exports. Agent text is flattened to one line.
import { statusLabel } from '../planSummary';
import type { StepMeta } from '../stepMeta';

/** `- [x] text`; with a step id and note (src/state/stepMeta.ts): ``- [ ] `s3` text _(blocked)_ — note``. */
export function checklistLine(content: string, status: string, meta: StepMeta = {}): string {
  const text = `${meta.id ? `\`${meta.id}\` ` : ''}${oneLine(content) || '(empty)'}`;
  const note = meta.note ? ` — ${meta.note}` : '';
  switch (status) {
    case 'completed':
      return `- [x] ${text}${note}`;
    case 'cancelled':
      return `- [x] ~~${text}~~${note}`;
    case 'pending':
      return `- [ ] ${text}${note}`;
    default:
      return `- [ ] ${text} _(${statusLabel(status)})_${note}`;
  }
}

/** A fenced code block whose fence is longer than any backtick run inside (one linear scan). */
export function fenced(lang: string, text: string): string {
  let longest = 2;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    run = text.charCodeAt(i) === 96 ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text}\n${fence}\n`;
}

export function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
