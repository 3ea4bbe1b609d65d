// The plan store's byte caps hold in memory, not only in its own accounting: a Markdown plan cut
// to its cap must not keep the whole text it was cut from alive (V8 keeps a slice of a long string
// as a view into it). Found by the hostile battery (test/integration/hostile.test.ts): 20
// revisions of a 10 MB plan kept ~100 MiB of heap while the history counted 8 MiB.
import assert from 'node:assert/strict';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { PlanStore } from '../../../src/state/planStore';
import { detachedCopy, headUtf8 } from '../../../src/state/planBytes';

function gc(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}

/** A plan text as it arrives: a fresh string parsed from the wire, `mb` megabytes long. */
function wireText(mb: number, tag: string): string {
  const line = `- [ ] a step with *emphasis* and \`code\` (${tag})\n`;
  return (JSON.parse(JSON.stringify({ content: `# ${tag}\n${line.repeat(Math.ceil((mb * 1024 * 1024) / line.length))}` })) as { content: string }).content;
}

describe('Plan byte caps hold in memory', function () {
  this.timeout(20_000);

  it('20 revisions of an 8 MB Markdown plan keep about the history cap of heap, not 8 MB each', () => {
    const store = new PlanStore();
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let r = 0; r < 20; r++) store.update('agent', 'sess', { type: 'markdown', planId: 'big', content: wireText(8, `rev ${r}`) });
    gc();
    const grewMiB = (process.memoryUsage().heapUsed - before) / 1024 / 1024;
    const p = store.get({ agentId: 'agent', sessionId: 'sess', planId: 'big' })!;
    assert.ok(p.historyBytes <= store.limits.maxHistoryBytes);
    // History cap 8 MiB plus the current revision's outline; with views into the 8 MB texts it was ~70 MiB.
    assert.ok(grewMiB < 30, `the plan store holds ${grewMiB.toFixed(1)} MiB of heap for ${p.revisions.length} revisions of ${store.limits.maxPlanBytes} bytes`);
  });

  it('detachedCopy is exact, lone surrogates included', () => {
    for (const s of ['', 'abc', 'é✓', '\ud800', 'a\udc00b', '😀'.repeat(3)]) assert.equal(detachedCopy(s), s);
    assert.equal(headUtf8('ab😀cd', 4), 'ab');
  });
});
