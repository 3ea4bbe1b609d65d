// The review comments of a session (src/app/review/reviewModel.ts): added, edited, resolved and
// reopened, deleted; moved by the agent's later changes (touched ones show the new code, deleted
// files say so); and kept in the session history: a fresh history replays the `review` records
// into a fresh model (a reload), the last record of a comment winning and a deletion staying one.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HistoryStore } from '../../../src/app/history/historyStore';
import { SessionHistory } from '../../../src/app/history/sessionHistory';
import { ReviewModel, type StoredReview } from '../../../src/app/review/reviewModel';
import { WorkStore } from '../../../src/state/attribution/workStore';
import { PlanStore } from '../../../src/state/planStore';
import { SessionStore } from '../../../src/state/sessionStore';
import { Transcript } from '../../../src/state/transcript';

const A = 'demo';
const S = 's1';
const FILE = '/w/hello.ts';
const text = (...lines: string[]): string => lines.join('\n') + '\n';

function world(dir: string) {
  const history = new HistoryStore(dir, { maxSessions: 10, maxBytes: 1e9, maxPlanRevisions: 200, flushMs: 1, warn: () => undefined });
  const store = new SessionStore();
  const work = new WorkStore({ cwd: () => undefined });
  const h = new SessionHistory({
    history,
    store,
    plans: new PlanStore(),
    transcript: new Transcript(),
    work,
    agentName: () => 'Demo',
    ignored: () => false,
    setReplayTime: () => undefined,
  });
  const model = new ReviewModel((agentId, sessionId, review, t) => h.record(agentId, sessionId, { t, review }));
  h.onDidReplayReview((r) => model.restore(r.agentId, r.sessionId, r.review));
  return { history, h, model };
}

describe('Review: the comment model', () => {
  it('adds, edits, resolves, reopens and deletes, storing each change', () => {
    const stored: StoredReview[] = [];
    const m = new ReviewModel((_a, _s, r) => stored.push(r));
    const c = m.add(
      { agentId: A, sessionId: S, path: FILE, start: 1, end: 2, lines: ['b', 'c'], text: 'why?', step: { planId: 'p', key: 0, label: 'Step one' } },
      1,
    )!;
    m.edit(c.id, 'why this?', 2);
    m.setState(c.id, 'resolved', 3);
    m.setState(c.id, 'open', 4);
    assert.equal(m.get(c.id)?.text, 'why this?');
    assert.equal(m.get(c.id)?.state, 'open');
    m.remove(c.id, 5);
    assert.equal(m.comments(A, S).length, 0);
    assert.deepEqual(
      stored.map((r) => ('deleted' in r ? 'deleted' : `${r.state}:${r.text}`)),
      ['open:why?', 'open:why this?', 'resolved:why this?', 'open:why this?', 'deleted'],
    );
  });

  it('moves comments with the agent change, shows the new code of touched ones, and says when the file is deleted', () => {
    const m = new ReviewModel(() => undefined);
    const above = m.add({ agentId: A, sessionId: S, path: FILE, start: 3, end: 3, lines: ['d'], text: 'x' }, 1)!;
    const inside = m.add({ agentId: A, sessionId: S, path: FILE, start: 1, end: 1, lines: ['b'], text: 'y' }, 1)!;
    m.fileChanged(FILE, text('a', 'b', 'c', 'd'), text('a', 'B!', 'c', 'd'), 2);
    assert.deepEqual([m.get(above.id)?.start, m.get(above.id)?.changed], [3, undefined], 'untouched: no note');
    assert.deepEqual(m.get(inside.id)?.changed, { t: 2, lines: ['B!'] }, 'touched: the new code');
    m.fileChanged(FILE, text('a', 'B!', 'c', 'd'), null, 3);
    assert.equal(m.get(above.id)?.gone, 'file');
  });

  it('keeps comments across a reload: the history replays them into a fresh model', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-review-'));
    try {
      const live = world(dir);
      const keep = live.model.add({ agentId: A, sessionId: S, path: FILE, start: 4, end: 6, lines: ['e', 'f', 'g'], text: 'rename this' }, 10)!;
      const gone = live.model.add({ agentId: A, sessionId: S, path: FILE, start: 0, end: 0, lines: ['a'], text: 'drop me' }, 11)!;
      live.model.setState(keep.id, 'resolved', 12);
      live.model.markSent([keep.id], 13);
      live.model.remove(gone.id, 14);
      await live.history.flush();
      const again = world(dir);
      again.h.restore();
      await again.h.whenRestored();
      const back = again.model.comments(A, S);
      assert.deepEqual(
        back.map((c) => [c.id, c.state, c.start, c.end, c.text, c.lines, c.sent?.t]),
        [[keep.id, 'resolved', 4, 6, 'rename this', ['e', 'f', 'g'], 13]],
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
