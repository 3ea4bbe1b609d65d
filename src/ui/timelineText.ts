// A plan step's timeline and counts as people read them (the Plans tree's rows and tooltips), and a
// plan's step timeline and drift as Markdown (Show Plan History), in the window's words. The steps
// and drift are the work index's (src/state/attribution/steps.ts).
import * as vscode from 'vscode';
import { DROPPED, type PlanTrack, type Step } from '../state/attribution/steps';

function durationText(ms: number): string {
  const sec = Math.max(0, Math.round(ms / 1000));
  if (sec < 60) return vscode.l10n.t('{0} s', sec);
  const min = Math.floor(sec / 60);
  if (min < 60) return vscode.l10n.t('{0} min {1} s', min, sec % 60);
  return vscode.l10n.t('{0} h {1} min', Math.floor(min / 60), min % 60);
}

/** "started 14:01:02 · finished 14:01:09 · took 7 s" (what is known of it), or undefined before it started. */
export function stepTimeline(s: Step, time: (ms: number) => string): string | undefined {
  if (s.start === undefined) return s.finish === undefined ? undefined : vscode.l10n.t('finished {0} (its start was not reported)', time(s.finish));
  const parts = [vscode.l10n.t('started {0}', time(s.start))];
  if (s.finish !== undefined) parts.push(vscode.l10n.t('finished {0}', time(s.finish)), vscode.l10n.t('took {0}', durationText(s.finish - s.start)));
  else parts.push(vscode.l10n.t('not finished'));
  return parts.join(' · ');
}

/** Agent text is put in inline code spans (no Markdown of the agent's is interpreted). */
function code(text: string): string {
  const clean = text.replace(/[\r\n]+/g, ' ');
  const ticks = '`'.repeat(Math.max(1, ...(clean.match(/`+/g) ?? []).map((r) => r.length + 1)));
  return `${ticks} ${clean} ${ticks}`;
}

/** "3 calls" / "1 file": a count with its noun, singular or plural as whole messages. */
export function callsText(n: number): string {
  return n === 1 ? vscode.l10n.t('1 call') : vscode.l10n.t('{0} calls', n);
}
export function filesText(n: number): string {
  return n === 1 ? vscode.l10n.t('1 file') : vscode.l10n.t('{0} files', n);
}

export function timelineMarkdown(t: PlanTrack, time: (ms: number) => string): string {
  const l10n = vscode.l10n;
  const out = [l10n.t('# Plan {0}: step timeline and drift', code(t.planId)), '', l10n.t('## Steps'), ''];
  const steps = [...t.byIndex, ...t.all.filter((s) => s.index === DROPPED)];
  if (!steps.length) out.push(l10n.t('No entries (work goes to the plan as a whole).'));
  for (const s of steps) {
    const where = s.index === DROPPED ? l10n.t('dropped') : `${s.index + 1}.`;
    const counts = `${callsText(s.calls.length)}, ${filesText(s.files.length)}`;
    out.push(`- ${where} ${code(s.content)} — ${code(s.status)}; ${stepTimeline(s, time) ?? l10n.t('never started')}; ${counts}`);
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
