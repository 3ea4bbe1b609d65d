// Must show 2: attribution from a real agent's recording. codex-acp 0.16.0 sends its update_plan
// steps as an ACP plan, then an apply_patch edit and an exec while its first step is in progress;
// replayed through the real v1 adapter, both calls belong to that step.
import assert from 'node:assert/strict';
import { WorkStore } from '../../../src/state/attribution/workStore';
import { AGENT, replay } from './replay';

describe('attribution from a codex-acp recording (through the real adapter)', () => {
  it("codex's update_plan steps get its apply_patch and exec calls", () => {
    const r = replay('codex-acp-0.16.0.ndjson');
    const work = new WorkStore();
    r.events.forEach((e, i) => work.apply(AGENT, e, i));
    const planId = r.store.plans(AGENT, r.sessionId)[0]!.planId;
    const write = work.stepAt(AGENT, r.sessionId, planId, 0)!;
    const marker = work.stepAt(AGENT, r.sessionId, planId, 1)!;
    assert.equal(write.content, 'Write the greeting file');
    const titles = write.calls.map((id) => work.call(AGENT, r.sessionId, id)!.title);
    assert.deepEqual(titles, ['Edit /workspace/hello.txt', 'touch ran.txt']);
    assert.deepEqual(write.files, ['/workspace/hello.txt']);
    assert.deepEqual(marker.calls, [], 'the marker step never ran on its own: codex finished both at once');
    assert.deepEqual(work.unplanned(AGENT, r.sessionId)!.calls, []);
    const [change] = work.stepChanges(AGENT, r.sessionId, write);
    assert.equal(typeof change!.last.after, 'string', 'the diff texts are kept for review');
    assert.ok(write.start !== undefined && write.finish !== undefined && write.finish > write.start);
  });
});
