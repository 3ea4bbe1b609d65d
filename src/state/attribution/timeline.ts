// A plan's step timeline and drift as plain text (Markdown), for Show Plan History. Pure.
import { english, type L10n } from '../../common/l10n';
import { DROPPED, type PlanTrack, type Step } from './steps';

export function durationText(ms: number, l10n: L10n = english): string {
  const sec = Math.max(0, Math.round(ms / 1000));
  if (sec < 60) return l10n.t('{0} s', sec);
  const min = Math.floor(sec / 60);
  if (min < 60) return l10n.t('{0} min {1} s', min, sec % 60);
  return l10n.t('{0} h {1} min', Math.floor(min / 60), min % 60);
}

/** "started 14:01:02 · finished 14:01:09 · took 7 s" (what is known of it), or undefined before it started. */
export function stepTimeline(s: Step, time: (ms: number) => string, l10n: L10n = english): string | undefined {
  if (s.start === undefined) return s.finish === undefined ? undefined : l10n.t('finished {0} (its start was not reported)', time(s.finish));
  const parts = [l10n.t('started {0}', time(s.start))];
  if (s.finish !== undefined) parts.push(l10n.t('finished {0}', time(s.finish)), l10n.t('took {0}', durationText(s.finish - s.start, l10n)));
  else parts.push(l10n.t('not finished'));
  return parts.join(' · ');
}

/** Agent text is put in inline code spans (no Markdown of the agent's is interpreted). */
function code(text: string): string {
  const clean = text.replace(/[\r\n]+/g, ' ');
  const ticks = '`'.repeat(Math.max(1, ...(clean.match(/`+/g) ?? []).map((r) => r.length + 1)));
  return `${ticks} ${clean} ${ticks}`;
}

/** "3 calls" / "1 file": a count with its noun, singular or plural as whole messages. */
export function callsText(n: number, l10n: L10n = english): string {
  return n === 1 ? l10n.t('1 call') : l10n.t('{0} calls', n);
}
export function filesText(n: number, l10n: L10n = english): string {
  return n === 1 ? l10n.t('1 file') : l10n.t('{0} files', n);
}

export function timelineMarkdown(t: PlanTrack, time: (ms: number) => string, l10n: L10n = english): string {
  const out = [l10n.t('# Plan {0}: step timeline and drift', code(t.planId)), '', l10n.t('## Steps'), ''];
  const steps = [...t.byIndex, ...t.all.filter((s) => s.index === DROPPED)];
  if (!steps.length) out.push(l10n.t('No entries (work goes to the plan as a whole).'));
  for (const s of steps) {
    const where = s.index === DROPPED ? l10n.t('dropped') : `${s.index + 1}.`;
    const counts = `${callsText(s.calls.length, l10n)}, ${filesText(s.files.length, l10n)}`;
    out.push(`- ${where} ${code(s.content)} — ${code(s.status)}; ${stepTimeline(s, time, l10n) ?? l10n.t('never started')}; ${counts}`);
  }
  out.push('', l10n.t('## Drift (entries added, dropped or reordered by a revision)'), '');
  if (!t.drift.length) out.push(l10n.t('None: the agent kept its entries as first sent.'));
  if (t.droppedDrift) out.push(l10n.t('({0} older records dropped)', t.droppedDrift));
  for (const d of t.drift) {
    const parts = [
      d.added.length ? l10n.t('added {0}', d.added.map(code).join(', ')) : '',
      d.dropped.length ? l10n.t('dropped {0}', d.dropped.map(code).join(', ')) : '',
      d.moved.length ? l10n.t('moved {0}', d.moved.map(code).join(', ')) : '',
    ].filter(Boolean);
    out.push(`- v${d.version} (${time(d.time)}): ${parts.join('; ')}`);
  }
  return `${out.join('\n')}\n`;
}
