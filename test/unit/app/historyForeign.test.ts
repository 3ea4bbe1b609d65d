// A session's log feeds only its own session: a record in it that names another session (an event's
// session id, a permission request's) is skipped and counted with the records that could not be
// read, so a tampered log cannot retitle, re-state or add plans and requests to another session.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HistoryStore } from '../../../src/app/history/historyStore';
import { LogEncoder } from '../../../src/app/history/records';
import { SessionHistory } from '../../../src/app/history/sessionHistory';
import { fileName } from '../../../src/app/history/storedSessions';
import type { SessionEvent } from '../../../src/protocol/domain';
import { PlanStore } from '../../../src/state/planStore';
import { sessionKey, SessionStore } from '../../../src/state/sessionStore';
import { Transcript } from '../../../src/state/transcript';

const A = 'demo';

/** A history folder holding the given logs (by session id, each with its title) as a reload finds them. */
function historyDir(logs: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-foreign-'));
  fs.mkdirSync(path.join(dir, 'sessions'));
  const sessions = Object.entries(logs).map(([sessionId, text]) => {
    const file = fileName(A, sessionId);
    fs.writeFileSync(path.join(dir, 'sessions', file), text);
    return { agentId: A, agentName: 'Demo', sessionId, title: `Session ${sessionId}`, file, bytes: Buffer.byteLength(text), createdAt: 1, updatedAt: 1 };
  });
  fs.writeFileSync(path.join(dir, 'index.json'), JSON.stringify({ version: 1, sessions, active: { agentId: A, sessionId: sessions[0]!.sessionId } }));
  return dir;
}

const plan = (sessionId: string, planId: string): SessionEvent => ({
  sessionId,
  kind: 'plan_update',
  plan: { type: 'items', planId, entries: [{ content: `${planId} step`, status: 'pending', priority: 'low' }] },
});

describe('Session history: a log feeds only its own session', () => {
  it("skips (and counts, said once) the records of a session's log that name another session", async () => {
    const encoder = new LogEncoder();
    const line = (t: number, e: SessionEvent): string => encoder.line({ t, e });
    const tampered = [
      line(1, plan('a', 'own')),
      line(2, { sessionId: 'b', kind: 'session_info', title: 'Renamed from a' } as SessionEvent),
      line(3, plan('b', 'planted')),
      line(4, { sessionId: 'b', kind: 'state', state: 'running' } as SessionEvent),
      `${JSON.stringify({ t: 5, ask: { id: 'x', request: { sessionId: 'b', title: 'Run rm -rf?', options: [] }, flags: [] } })}\n`,
      line(6, { sessionId: 'a', kind: 'message', role: 'agent', messageId: 'm', content: [{ type: 'text', text: 'own words' }] } as SessionEvent),
    ].join('');
    const dir = historyDir({ a: tampered, b: line(1, plan('b', 'real')) });
    const warnings: string[] = [];
    const history = new HistoryStore(dir, { maxSessions: 10, maxBytes: 1e9, maxPlanRevisions: 200, flushMs: 1, warn: (m) => warnings.push(m) });
    const store = new SessionStore();
    const plans = new PlanStore();
    const transcript = new Transcript();
    const h = new SessionHistory({ history, store, plans, transcript, agentName: () => 'Demo', ignored: () => false, setReplayTime: () => undefined });
    h.restore();
    await h.whenRestored();

    const b = store.session(A, 'b')!;
    assert.deepEqual({ title: b.title, turnState: b.turnState }, { title: 'Session b', turnState: 'idle' }, "b's row is what b's own log says");
    assert.ok(plans.get({ agentId: A, sessionId: 'b', planId: 'real' }), "b's own plan");
    assert.equal(plans.get({ agentId: A, sessionId: 'b', planId: 'planted' }), undefined, "a's log planted no plan in b");
    assert.ok(plans.get({ agentId: A, sessionId: 'a', planId: 'own' }), "a's own plan");

    const items = (id: string): string[] => {
      const s = transcript.session(sessionKey(A, id));
      return s ? s.slice(s.firstIndex).map((i) => (i.kind === 'notice' ? `notice: ${i.title}` : i.kind)) : [];
    };
    assert.deepEqual(items('a'), ['message', "notice: 4 records of this session's history could not be read and were skipped."]);
    assert.ok(!items('b').includes('permission'), items('b').join(' | '));
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0]!, /session a: 4 records/);
  });
});
