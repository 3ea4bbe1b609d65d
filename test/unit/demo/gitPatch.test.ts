import assert from 'node:assert/strict';
import { gitPatch } from '../../../src/demo/wire/gitPatch';

describe('Demo Agent git patch', () => {
  it('renders a modification as one hunk with context', () => {
    const before = 'a\nb\nc\nd\ne\nf\ng\nh\n';
    const after = 'a\nb\nc\nd\nE\nf\ng\nh\ni\n';
    assert.equal(
      gitPatch('x.txt', before, after),
      ['diff --git a/x.txt b/x.txt', '--- a/x.txt', '+++ b/x.txt', '@@ -2,7 +2,8 @@', ' b', ' c', ' d', '-e', '+E', ' f', ' g', ' h', '+i', ''].join('\n'),
    );
  });

  it('renders a new file and a missing final newline', () => {
    assert.equal(
      gitPatch('n.txt', null, 'x\ny'),
      [
        'diff --git a/n.txt b/n.txt',
        'new file mode 100644',
        '--- /dev/null',
        '+++ b/n.txt',
        '@@ -0,0 +1,2 @@',
        '+x',
        '+y',
        '\\ No newline at end of file',
        '',
      ].join('\n'),
    );
  });

  it('splits far-apart changes into separate hunks', () => {
    const lines = Array.from({ length: 20 }, (_, i) => `l${i}`);
    const changed = [...lines];
    changed[1] = 'X';
    changed[18] = 'Y';
    const patch = gitPatch('f', `${lines.join('\n')}\n`, `${changed.join('\n')}\n`);
    assert.equal(patch.match(/^@@ /gm)?.length, 2);
    assert.match(patch, /^@@ -1,5 \+1,5 @@$/m);
    assert.match(patch, /^@@ -16,5 \+16,5 @@$/m);
  });
});
