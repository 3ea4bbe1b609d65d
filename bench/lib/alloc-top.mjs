// Prints the functions that allocate most in a .heapprofile (self and inclusive).
//   node bench/lib/alloc-top.mjs <file>
import { readFileSync } from 'node:fs';
const p = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const self = new Map();
const incl = new Map();
let total = 0;
const walk = (n, stack) => {
  const name = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
  const sz = n.selfSize;
  total += sz;
  self.set(name, (self.get(name) ?? 0) + sz);
  const st = new Set(stack);
  st.add(name);
  for (const x of st) incl.set(x, (incl.get(x) ?? 0) + sz);
  for (const c of n.children) walk(c, st);
};
walk(p.head, []);
const show = (m, k) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([n, v]) => `${(v / 1048576).toFixed(1).padStart(8)} MiB ${((100 * v) / total).toFixed(1).padStart(5)}%  ${n}`)
    .join('\n');
console.log(`total sampled ${(total / 1048576).toFixed(1)} MiB\n--- self\n${show(self, 25)}\n--- inclusive\n${show(incl, 30)}`);
