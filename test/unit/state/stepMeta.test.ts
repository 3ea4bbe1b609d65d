import assert from 'node:assert/strict';
import { planToMarkdown } from '../../../src/state/planExport';
import { NOTE_MAX, stepMeta } from '../../../src/state/stepMeta';

describe('step ids and notes in _meta (odek seed)', () => {
  it('reads the id from id, stepId or step_id and the note from note', () => {
    assert.deepEqual(stepMeta({ id: 's1', note: 'provider rejects\nnested arrays' }), { id: 's1', note: 'provider rejects nested arrays' });
    assert.deepEqual(stepMeta({ stepId: 's2' }), { id: 's2' });
    assert.deepEqual(stepMeta({ step_id: 'build-3' }), { id: 'build-3' });
    assert.deepEqual(stepMeta(undefined), {});
    assert.deepEqual(stepMeta({ other: 1 }), {});
  });

  it('shows no id that breaks the seed rule (≤ 32 chars, no whitespace, brackets or backticks)', () => {
    for (const bad of ['has space', '[s1]', 'x'.repeat(33), 'a`b', 7, { id: 's' }]) assert.equal(stepMeta({ id: bad as never }).id, undefined, String(bad));
    // The first key that is set decides, even when its value is refused.
    assert.equal(stepMeta({ id: 'bad id', stepId: 's9' }).id, undefined);
    assert.equal(stepMeta({ id: 'x'.repeat(32) }).id, 'x'.repeat(32));
  });

  it('flattens a note to one line and bounds it', () => {
    const n = stepMeta({ note: 'a\n\tb' + ' c'.repeat(1_000_000) }).note!;
    assert.equal(n.length, NOTE_MAX);
    assert.ok(n.startsWith('a b c c'));
    assert.ok(n.endsWith('…'));
    assert.equal(stepMeta({ note: '   ' }).note, undefined);
    assert.equal(stepMeta({ note: 42 }).note, undefined);
  });

  it('puts ids and notes into the exported checklist', () => {
    const md = planToMarkdown({
      planId: 'p',
      plan: {
        type: 'items',
        planId: 'p',
        entries: [
          { content: 'Scaffold', priority: 'high', status: 'completed', _meta: { id: 's1' } },
          { content: 'Resolve schema', priority: 'low', status: '_blocked', _meta: { id: 's2', note: 'provider rejects nested arrays' } },
          { content: 'Docs', priority: 'low', status: 'pending' },
        ],
      },
    });
    assert.equal(
      md,
      [
        '## p · v1 — 1/3 done, 1 blocked',
        '',
        '- [x] `s1` Scaffold',
        '- [ ] `s2` Resolve schema _(blocked)_ — provider rejects nested arrays',
        '- [ ] Docs',
        '',
      ].join('\n'),
    );
  });
});
