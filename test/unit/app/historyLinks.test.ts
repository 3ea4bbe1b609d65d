// The history writer never writes through a link planted in its folder: a linked log, index or
// history folder is refused (reported once) and the history is kept in memory only.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HistoryStore } from '../../../src/app/history/historyStore';
import type { SessionEvent } from '../../../src/protocol/domain';

const chunk = (text: string): SessionEvent => ({ sessionId: 's1', kind: 'message_chunk', role: 'agent', messageId: 'm', content: { type: 'text', text } });
const tmp = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'acp-links-'));
const LINKED = /^The session history folder contains a link \((.+)\); ACP Plans does not write through links\. Remove it to keep history\.$/;

function store(dir: string, warnings: string[]): HistoryStore {
  return new HistoryStore(dir, { maxSessions: 10, maxBytes: 1e9, maxPlanRevisions: 200, flushMs: 1, warn: (m) => warnings.push(m) });
}

/** A folder outside the history with a file the links point at. */
function target(): { file: string; folder: string } {
  const folder = tmp();
  const file = path.join(folder, 'precious.txt');
  fs.writeFileSync(file, 'precious\n');
  return { file, folder };
}
const listing = (folder: string): string[] => fs.readdirSync(folder, { recursive: true }).map(String).sort();

describe('Session history: links in its folder', () => {
  it('a log that is a link is neither written nor read through', async () => {
    const dir = tmp();
    const a = store(dir, []);
    a.describe({ agentId: 'demo', agentName: 'Demo', sessionId: 's1' });
    a.append('demo', 's1', { t: 1, e: chunk('first') });
    await a.flush();
    const log = path.join(dir, 'sessions', a.sessions()[0]!.file);
    const t = target();
    fs.rmSync(log);
    fs.symlinkSync(t.file, log);

    const warnings: string[] = [];
    const b = store(dir, warnings);
    const [s] = b.loadIndex();
    b.append('demo', 's1', { t: 2, e: chunk('second') });
    await b.flush();
    const loaded = await b.load(s!);
    b.append('demo', 's1', { t: 3, e: chunk('third') });
    await b.flush();
    b.flushSync();
    assert.equal(fs.readFileSync(t.file, 'utf8'), 'precious\n');
    assert.deepEqual(loaded.records, []);
    assert.equal(warnings.filter((w) => LINKED.test(w)).length, 1, warnings.join('\n'));
    assert.equal(LINKED.exec(warnings.find((w) => LINKED.test(w))!)![1], `sessions/${s!.file}`);
  });

  it('an index or its temporary file that is a link is not written through', async () => {
    for (const name of ['index.json', 'index.json.tmp', 'index.json.sync.tmp']) {
      const dir = tmp();
      const t = target();
      fs.symlinkSync(t.file, path.join(dir, name));
      const warnings: string[] = [];
      const a = store(dir, warnings);
      a.loadIndex();
      a.describe({ agentId: 'demo', agentName: 'Demo', sessionId: 's1', title: 'A title' });
      a.append('demo', 's1', { t: 1, e: chunk('hello') });
      await a.flush();
      a.describe({ agentId: 'demo', agentName: 'Demo', sessionId: 's1', title: 'Another' });
      a.flushSync();
      assert.equal(fs.readFileSync(t.file, 'utf8'), 'precious\n', name);
      assert.equal(warnings.filter((w) => LINKED.test(w)).length, 1, `${name}: ${warnings.join('\n')}`);
    }
  });

  it('a history folder that is a link is not written into; the history stays in memory', async () => {
    const parent = tmp();
    const t = target();
    const dir = path.join(parent, 'history');
    fs.symlinkSync(t.folder, dir);
    const warnings: string[] = [];
    const a = store(dir, warnings);
    assert.deepEqual(a.loadIndex(), []);
    a.describe({ agentId: 'demo', agentName: 'Demo', sessionId: 's1' });
    a.append('demo', 's1', { t: 1, e: chunk('hello') });
    await a.flush();
    a.flushSync();
    assert.deepEqual(listing(t.folder), ['precious.txt']);
    assert.equal(a.sessions().length, 1, 'the session is still listed (in memory)');
    assert.deepEqual(
      warnings.filter((w) => LINKED.test(w)),
      ['The session history folder contains a link (history); ACP Plans does not write through links. Remove it to keep history.'],
    );
  });
});
