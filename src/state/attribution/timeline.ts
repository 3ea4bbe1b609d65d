// A plan's step timeline and drift as plain text (Markdown), for Show Plan History. Pure.
import { DROPPED, type PlanTrack, type Step } from './steps';

export function durationText(ms: number): string {
  const sec = Math.max(0, Math.round(ms / 1000));
  if (sec < 60) return `${sec} s`;
  const min = Math.floor(sec / 60);
  if (min < 60) return `${min} min ${sec % 60} s`;
  return `${Math.floor(min / 60)} h ${min % 60} min`;
}

/** "started 14:01:02 · finished 14:01:09 · took 7 s" (what is known of it), or undefined before it started. */
export function stepTimeline(s: Step, time: (ms: number) => string): string | undefined {
  if (s.start === undefined) return s.finish === undefined ? undefined : `finished ${time(s.finish)} (its start was not reported)`;
  const parts = [`started ${time(s.start)}`];
  if (s.finish !== undefined) parts.push(`finished ${time(s.finish)}`, `took ${durationText(s.finish - s.start)}`);
  else parts.push('not finished');
  return parts.join(' · ');
}

/** Agent text is put in inline code spans (no Markdown of the agent's is interpreted). */
function code(text: string): string {
  const clean = text.replace(/[\r\n]+/g, ' ');
  const ticks = '`'.repeat(Math.max(1, ...(clean.match(/`+/g) ?? []).map((r) => r.length + 1)));
  return `${ticks} ${clean} ${ticks}`;
}

export function timelineMarkdown(t: PlanTrack, time: (ms: number) => string): string {
  const out = [`# Plan ${code(t.planId)}: step timeline and drift`, '', '## Steps', ''];
  const steps = [...t.byIndex, ...t.all.filter((s) => s.index === DROPPED)];
  if (!steps.length) out.push('No entries (work goes to the plan as a whole).');
  for (const s of steps) {
    const where = s.index === DROPPED ? 'dropped' : `${s.index + 1}.`;
    const counts = `${s.calls.length} call${s.calls.length === 1 ? '' : 's'}, ${s.files.length} file${s.files.length === 1 ? '' : 's'}`;
    out.push(`- ${where} ${code(s.content)} — ${code(s.status)}; ${stepTimeline(s, time) ?? 'never started'}; ${counts}`);
  }
  out.push('', '## Drift (entries added, dropped or reordered by a revision)', '');
  if (!t.drift.length) out.push('None: the agent kept its entries as first sent.');
  if (t.droppedDrift) out.push(`(${t.droppedDrift} older records dropped)`);
  for (const d of t.drift) {
    const parts = [
      d.added.length ? `added ${d.added.map(code).join(', ')}` : '',
      d.dropped.length ? `dropped ${d.dropped.map(code).join(', ')}` : '',
      d.moved.length ? `moved ${d.moved.map(code).join(', ')}` : '',
    ].filter(Boolean);
    out.push(`- v${d.version} (${time(d.time)}): ${parts.join('; ')}`);
  }
  return `${out.join('\n')}\n`;
}
