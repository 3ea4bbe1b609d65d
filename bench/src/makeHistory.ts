// Writes a workspace's session history with the real history writer (HistoryStore): `sessions`
// sessions of `items` records in all, each record a real decoded event of the benchmark stream
// (the v2 adapter's output for its lines: chunks, tool calls, plans, …), as a live session would
// have recorded them. Used by bench/activation-history.mjs to fill the workspace storage of a
// real VS Code before it starts.
// With `long` > 0, one more session, "Long session", holds `long` items (agent messages and a tool
// call among every 10), for the time to open a long session in the conversation.
//   node make-history.js <history dir> <stream.ndjson> [sessions=50] [items=20000] [long=0]
import { readFileSync } from 'node:fs';
import { HistoryStore } from '../../src/app/history/historyStore';
import { description } from '../../src/app/history/sessionHistory';
import { SessionStore } from '../../src/state/sessionStore';
import { createAdapter } from '../../src/protocol/adapter';
import type { SessionEvent } from '../../src/protocol/domain';
import { HISTORY_DEFAULTS } from './persist';
import { report } from './common';

async function main(): Promise<void> {
  const [dir, streamFile, sessionsArg, itemsArg, longArg] = process.argv.slice(2);
  const long = Number(longArg ?? 0);
  const sessions = Number(sessionsArg ?? 50);
  const items = Number(itemsArg ?? 20_000);
  const lines = readFileSync(streamFile, 'utf8')
    .split('\n', items)
    .filter((l) => l.length > 0);
  if (lines.length < items) throw new Error(`the stream has ${lines.length} lines, ${items} needed`);
  const warnings: string[] = [];
  const history = new HistoryStore(dir, { ...HISTORY_DEFAULTS, warn: (m) => warnings.push(m) });
  history.loadIndex();
  const adapter = createAdapter(2);
  const per = Math.ceil(items / sessions);
  let written = 0;
  const t0 = Date.parse('2026-11-30T09:00:00Z');
  // Described first, so its row comes first under its agent (the tree shows sessions in index order).
  if (long > 0) history.describe({ agentId: 'agent-0', agentName: 'Stored agent 1', sessionId: 'long-session', title: 'Long session', cwd: '/work/project' });
  for (let s = 0; s < sessions; s++) {
    const agentId = `agent-${s % 3}`;
    const sessionId = `stored-session-${s + 1}`;
    history.describe({ agentId, agentName: `Stored agent ${(s % 3) + 1}`, sessionId, title: `Stored session ${s + 1}`, cwd: '/work/project' });
    const store = new SessionStore();
    store.addStoredSession(agentId, sessionId, { title: `Stored session ${s + 1}`, cwd: '/work/project' });
    for (let i = 0; i < per && written < items; i++, written++) {
      const params = (JSON.parse(lines[written]!) as { params: { sessionId: string } }).params;
      params.sessionId = sessionId;
      for (const e of adapter.decodeUpdate(params)) {
        history.append(agentId, sessionId, { t: t0 + written * 100, e });
        store.applyEvent(agentId, e);
      }
    }
    // The index as the extension keeps it: described again at every change of the session.
    history.describe(description(agentId, sessionId, `Stored agent ${(s % 3) + 1}`, store.session(agentId, sessionId)));
    await history.flush();
  }
  if (long > 0) {
    const sessionId = 'long-session';
    for (let i = 0; i < long; i++) {
      const e: SessionEvent =
        i % 10 === 5
          ? ({ sessionId, kind: 'tool_call', toolCallId: `call-${i}`, fields: { title: `Read file ${i}`, kind: 'read', status: 'completed' } } as SessionEvent)
          : {
              sessionId,
              kind: 'message_chunk',
              role: 'agent',
              messageId: `m-${i}`,
              content: { type: 'text', text: `Long session item ${i + 1}: ${'a line of the agent explaining its work '.repeat(3)}` },
            };
      history.append('agent-0', sessionId, { t: t0 + items * 100 + i * 100, e });
    }
    await history.flush();
  }
  // The session that was active when the editor closed: shown unfolded, with its plans and work.
  history.setActive({ agentId: 'agent-0', sessionId: 'stored-session-1' });
  await history.flush();
  report({ sessions: history.sessions().length, items: written, bytes: history.sessions().reduce((n, x) => n + x.bytes, 0), warnings });
}

main().catch((err: unknown) => {
  report({ error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  process.exit(1);
});
