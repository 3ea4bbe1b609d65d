// Adversarial Markdown (issue: a 156 KB line froze the extension host 17 s in the regex parser):
// parse time of 1 MiB inputs built to hurt a backtracking or quadratic scanner, through the
// Markdown outline scanner the plan store uses (src/state/markdownOutline.ts). Each input is
// parsed once cold, then 5 times; the worst input's median and the worst cold time are reported,
// as wall-clock time and as the CPU time of this process (on a shared machine whose load exceeds
// its cores, wall time mostly measures the wait for a core; CPU time is what the parse costs).
import { parseMarkdownOutline } from '../../src/state/markdownOutline';
import { report } from './common';

const MiB = 1024 * 1024;
const fill = (unit: string): string => unit.repeat(Math.ceil(MiB / unit.length)).slice(0, MiB);

const INPUTS: Record<string, string> = {
  'heading of inner spaces': '# a' + ' '.repeat(MiB - 4) + 'b',
  'task of inner spaces': '- [ ] a' + ' '.repeat(MiB - 8) + 'b',
  'one line of #': '#'.repeat(MiB),
  'one line of [': '- ' + '['.repeat(MiB - 2),
  'one line of *': '*'.repeat(MiB),
  'one line of backticks': '`'.repeat(MiB),
  'closing-hash runs': '# ' + fill(' #'),
  'lists nested deeper each line': Array.from({ length: 1440 }, (_, i) => ' '.repeat(i) + '- [ ] t').join('\n'),
  'quotes and lists': fill('> - > * > + [ ] x\n'),
  'task lines': fill('- [x] a\n- [ ] b\n'),
  headings: fill('# h\n## h ##\n'),
  'unclosed fences': fill('```\n~~~~\n'),
  brackets: fill('- [[[ ]]] [x] [ ]\n'),
};

function time(f: () => void): { wall: number; cpu: number } {
  const c = process.cpuUsage();
  const t = performance.now();
  f();
  const wall = performance.now() - t;
  const d = process.cpuUsage(c);
  return { wall, cpu: (d.user + d.system) / 1000 };
}

const results = Object.entries(INPUTS).map(([name, text]) => {
  const cold = time(() => parseMarkdownOutline(text));
  const runs = Array.from({ length: 5 }, () => time(() => parseMarkdownOutline(text)));
  const median = (k: 'wall' | 'cpu'): number => runs.map((r) => r[k]).sort((a, b) => a - b)[2]!;
  return { name, bytes: text.length, coldMs: cold.wall, medianMs: median('wall'), coldCpuMs: cold.cpu, medianCpuMs: median('cpu') };
});

report({
  section: 'markdownParse',
  results,
  worstMedianMs: Math.max(...results.map((r) => r.medianMs)),
  worstColdMs: Math.max(...results.map((r) => r.coldMs)),
  worstMedianCpuMs: Math.max(...results.map((r) => r.medianCpuMs)),
  worstColdCpuMs: Math.max(...results.map((r) => r.coldCpuMs)),
});
