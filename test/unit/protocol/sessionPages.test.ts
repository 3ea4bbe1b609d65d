// session/list pages fetched on demand, within bounds.
import * as assert from 'node:assert/strict';
import { MAX_LIST_PAGES, MAX_LISTED_SESSIONS, SessionPages } from '../../../src/protocol/sessionPages';
import type { SessionListEntry } from '../../../src/protocol/api';

const entry = (id: string): SessionListEntry => ({ sessionId: id, cwd: '/w' });

describe('SessionPages (paginated session/list)', () => {
  it('fetches one page per call, passing nextCursor back; an empty string is a cursor; stops without one', async () => {
    const asked: (string | undefined)[] = [];
    const pages = new SessionPages(async (cursor) => {
      asked.push(cursor);
      if (cursor === undefined) return { sessions: [entry('a'), entry('b')], nextCursor: '' };
      if (cursor === '') return { sessions: [entry('c'), entry('b')], nextCursor: 'x' };
      return { sessions: [entry('d')], nextCursor: null };
    });
    await pages.fetch();
    assert.deepEqual(
      pages.sessions.map((s) => s.sessionId),
      ['a', 'b'],
    );
    assert.equal(pages.more, true, 'more only on demand');
    await pages.fetch();
    await pages.fetch();
    assert.deepEqual(asked, [undefined, '', 'x']);
    assert.deepEqual(
      pages.sessions.map((s) => s.sessionId),
      ['a', 'b', 'c', 'd'],
      'a repeated id is listed once',
    );
    assert.equal(pages.more, false);
    assert.equal(pages.stoppedEarly, undefined);
    await pages.fetch();
    assert.equal(asked.length, 3, 'nothing fetched after the end');
  });

  it('stops at a repeated cursor and after MAX_LIST_PAGES pages, saying why', async () => {
    const loop = new SessionPages(async () => ({ sessions: [entry('a')], nextCursor: 'same' }));
    await loop.fetch();
    await loop.fetch();
    assert.equal(loop.more, false);
    assert.match(loop.stoppedEarly!, /repeated a page cursor/);
    let n = 0;
    const endless = new SessionPages(async () => ({ sessions: [entry(`s${n}`)], nextCursor: `c${++n}` }));
    while (endless.more) await endless.fetch();
    assert.equal(n, MAX_LIST_PAGES);
    assert.match(endless.stoppedEarly!, /only the first 50 sessions/);
    // A last page past the cap is cut, and says so.
    const big = new SessionPages(async () => ({ sessions: Array.from({ length: MAX_LISTED_SESSIONS + 5 }, (_, i) => entry(`b${i}`)) }));
    await big.fetch();
    assert.equal(big.sessions.length, MAX_LISTED_SESSIONS);
    assert.match(big.stoppedEarly!, new RegExp(`only the first ${MAX_LISTED_SESSIONS} sessions`));
  });
});
