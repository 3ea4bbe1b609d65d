// The words of checkpoint failures (src/ui/checkpointWords.ts): every reason the layers below hand up
// has a sentence that holds its data, in English and in German (the German bundle, as a German
// window loads it): no English git or checkpoint error in a German window.
import * as assert from 'node:assert/strict';
import type { CheckpointReason } from '../../../src/app/checkpoints/reasons';
import { english } from '../../../src/common/l10n';
import { checkpointWords } from '../../../src/ui/checkpointWords';
import { german } from '../l10n/german';

/** One reason of each code (the type makes a new code add its own). */
const SAMPLES: { readonly [K in CheckpointReason['code']]: readonly Extract<CheckpointReason, { code: K }>[] } = {
  'git-missing': [{ code: 'git-missing', data: { git: '/usr/bin/git', errno: 'ENOENT' } }],
  'git-cannot-start': [{ code: 'git-cannot-start', data: { git: 'git', detail: 'spawn E2BIG' } }],
  'git-failed': [
    { code: 'git-failed', data: { command: 'git write-tree', exitCode: 128, signal: null, stderr: 'fatal: index file corrupt' } },
    { code: 'git-failed', data: { command: 'git write-tree', exitCode: 1, signal: null, stderr: '' } },
    { code: 'git-failed', data: { command: 'git write-tree', exitCode: null, signal: 'SIGKILL', stderr: '' } },
  ],
  'git-timeout': [{ code: 'git-timeout', data: { command: 'git ls-files', seconds: 120 } }],
  'git-output-over': [{ code: 'git-output-over', data: { command: 'git cat-file', maxBytes: 4096 } }],
  'git-helper-lost': [{ code: 'git-helper-lost', data: { command: 'git ls-files', detail: "the spawn helper's channel closed" } }],
  closed: [{ code: 'closed', data: {} }],
  'store-overlaps': [{ code: 'store-overlaps', data: { gitDir: '/ws/.store', workTree: '/ws' } }],
  'too-many-files': [{ code: 'too-many-files', data: { folder: '/ws', maxFiles: 100000 } }],
  'beyond-link': [{ code: 'beyond-link', data: { folder: '/ws', link: 'src/vendor', files: 12 } }],
  'not-an-id': [{ code: 'not-an-id', data: { id: 'xyz' } }],
  'not-stored': [{ code: 'not-stored', data: { id: '0123456789' } }],
  'outside-folder': [{ code: 'outside-folder', data: { path: '../etc' } }],
  'not-a-tree-id': [{ code: 'not-a-tree-id', data: { id: 'abc' } }],
  'write-failed': [
    { code: 'write-failed', data: { what: 'commit', detail: 'ENOSPC' } },
    { code: 'write-failed', data: { what: 'ref', detail: 'EEXIST' } },
  ],
  'merge-failed': [{ code: 'merge-failed', data: { detail: 'EACCES' } }],
  unexpected: [{ code: 'unexpected', data: { detail: 'EIO' } }],
};
const all = Object.values(SAMPLES).flat() as CheckpointReason[];
/** The values a sentence must show: every string and number of the reason's data. */
const values = (r: CheckpointReason): string[] =>
  Object.values(r.data)
    .filter((v): v is string | number => (typeof v === 'string' && v !== '') || typeof v === 'number')
    .filter((v) => !(r.code === 'git-helper-lost' && v === r.data.detail) && !(r.code === 'write-failed' && v === r.data.what))
    .map(String);

describe('checkpoint words', () => {
  it('words every reason in English with its data, each code its own sentence', () => {
    const seen = new Set<string>();
    for (const r of all) {
      const text = checkpointWords(r, english);
      for (const v of values(r)) assert.ok(text.includes(v), `${r.code}: "${text}" shows ${v}`);
      assert.ok(!seen.has(text), `${r.code}: its own sentence`);
      seen.add(text);
    }
    assert.equal(
      checkpointWords(all[0]!, english),
      'Checkpoints are off: git was not found (/usr/bin/git: ENOENT). Install git, or put it on the PATH, to have the workspace checkpointed.',
    );
  });

  // Mutation: drop a message from l10n/bundle.l10n.de.json: german throws "no German for …".
  it('words every reason in German (the German bundle)', () => {
    for (const r of all) {
      const text = checkpointWords(r, german);
      assert.notEqual(text, checkpointWords(r, english), `${r.code}: translated`);
      for (const v of values(r)) assert.ok(text.includes(v), `${r.code}: "${text}" shows ${v}`);
    }
    assert.equal(
      checkpointWords({ code: 'git-helper-lost', data: { command: 'git ls-files', detail: "the spawn helper's channel closed" } }, german),
      'Checkpoints: git ls-files wurde nicht fertig: Der Prozess, der git für ACP Plans startet, wurde beendet. Der nächste Checkpoint startet ihn neu.',
    );
  });
});
