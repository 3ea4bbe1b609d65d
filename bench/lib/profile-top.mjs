// Prints the functions with the most self time in a V8 .cpuprofile (node --cpu-prof), and the
// heaviest inclusive times of the functions named on the command line.
//   node bench/lib/profile-top.mjs <file.cpuprofile> [limit]
import { readFileSync } from 'node:fs';

const [file, limitArg] = process.argv.slice(2);
const prof = JSON.parse(readFileSync(file, 'utf8'));
const limit = Number(limitArg ?? 25);
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = prof.timeDeltas;
for (let i = 0; i < prof.samples.length; i++) {
  const id = prof.samples[i];
  self.set(id, (self.get(id) ?? 0) + (dt[i] ?? 0));
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
const agg = new Map();
for (const [id, t] of self) {
  const n = byId.get(id);
  const cf = n.callFrame;
  const key = `${cf.functionName || '(anonymous)'}  ${cf.url.split('/').slice(-2).join('/')}:${cf.lineNumber + 1}`;
  agg.set(key, (agg.get(key) ?? 0) + t);
}
const rows = [...agg].sort((a, b) => b[1] - a[1]).slice(0, limit);
console.log(`total ${(total / 1000).toFixed(0)} ms sampled`);
for (const [k, t] of rows) console.log(`${(t / 1000).toFixed(1).padStart(8)} ms ${((100 * t) / total).toFixed(1).padStart(5)} %  ${k}`);
