// Writes a workspace's session history with the real history writer (HistoryStore): `sessions`
// sessions of `items` records in all, each record a real decoded event of the benchmark stream
// (the v2 adapter's output for its lines: chunks, tool calls, plans, …), as a live session would
// have recorded them. Used by bench/activation-history.mjs to fill the workspace storage of a
// real VS Code before it starts.
//   node make-history.js <history dir> <stream.ndjson> [sessions=50] [items=20000]
import { readFileSync } from 'node:fs';
import { HistoryStore } from '../../src/app/history/historyStore';
import { createAdapter } from '../../src/protocol/adapter';
import { HISTORY_DEFAULTS } from './persist';
import { report } from './common';

async function main(): Promise<void> {
  const [dir, streamFile, sessionsArg, itemsArg] = process.argv.slice(2);
  const sessions = Number(sessionsArg ?? 50);
  const items = Number(itemsArg ?? 20_000);
  const lines = readFileSync(streamFile, 'utf8').split('\n', items).filter((l) => l.length > 0);
  if (lines.length < items) throw new Error(`the stream has ${lines.length} lines, ${items} needed`);
  const warnings: string[] = [];
  const history = new HistoryStore(dir, { ...HISTORY_DEFAULTS, warn: (m) => warnings.push(m) });
  history.loadIndex();
  const adapter = createAdapter(2);
  const per = Math.ceil(items / sessions);
  let written = 0;
  const t0 = Date.parse('2026-11-30T09:00:00Z');
  for (let s = 0; s < sessions; s++) {
    const agentId = `agent-${s % 3}`;
    const sessionId = `stored-session-${s + 1}`;
    history.describe({ agentId, agentName: `Stored agent ${(s % 3) + 1}`, sessionId, title: `Stored session ${s + 1}`, cwd: '/work/project' });
    for (let i = 0; i < per && written < items; i++, written++) {
      const params = (JSON.parse(lines[written]!) as { params: { sessionId: string } }).params;
      params.sessionId = sessionId;
      for (const e of adapter.decodeUpdate(params)) history.append(agentId, sessionId, { t: t0 + written * 100, e });
    }
    await history.flush();
  }
  await history.flush();
  report({ sessions: history.sessions().length, items: written, bytes: history.sessions().reduce((n, x) => n + x.bytes, 0), warnings });
}

main().catch((err: unknown) => { report({ error: err instanceof Error ? err.stack ?? err.message : String(err) }); process.exit(1); });
