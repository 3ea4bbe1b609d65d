import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { compactHunks, countChanges, diffLines, splitLines } from '../../../src/ui/conversation/lineDiff';
import { applyHunks, findFilePatch, parsePatch, patchStats, reconstruct } from '../../../src/ui/conversation/patch';

const BEFORE = 'a\nb\nc\nd\ne\nf\ng\n';
const AFTER = 'a\nb\nC\nd\ne\nf\ng\nh\n';
const PATCH = `diff --git a/src/x.txt b/src/x.txt
index 111..222 100644
--- a/src/x.txt
+++ b/src/x.txt
@@ -1,5 +1,5 @@
 a
 b
-c
+C
 d
 e
@@ -6,2 +6,3 @@
 f
 g
+h
diff --git a/new.txt b/new.txt
new file mode 100644
--- /dev/null
+++ b/new.txt
@@ -0,0 +1,2 @@
+hello
+world
`;

describe('patch', () => {
  it('parses files, paths and hunks', () => {
    const files = parsePatch(PATCH);
    assert.equal(files.length, 2);
    assert.equal(files[0].newPath, 'src/x.txt');
    assert.equal(files[0].hunks.length, 2);
    assert.deepEqual(patchStats(files[0]), { added: 2, removed: 1 });
    assert.equal(files[1].oldPath, null);
    assert.equal(findFilePatch(files, '/work/src/x.txt'), files[0]);
  });

  it('applies hunks forward and in reverse', () => {
    const [f] = parsePatch(PATCH);
    assert.equal(applyHunks(BEFORE, f.hunks, 'forward'), AFTER);
    assert.equal(applyHunks(AFTER, f.hunks, 'reverse'), BEFORE);
    assert.equal(applyHunks('zzz\n', f.hunks, 'forward'), null);
  });

  it('rebuilds before/after whether the patch is applied yet or not', () => {
    const [f, added] = parsePatch(PATCH);
    assert.deepEqual(reconstruct(f, AFTER), { before: BEFORE, after: AFTER });
    assert.deepEqual(reconstruct(f, BEFORE), { before: BEFORE, after: AFTER });
    assert.equal(reconstruct(f, 'unrelated\n'), null);
    assert.deepEqual(reconstruct(added, undefined), { before: '', after: 'hello\nworld\n' });
  });

  it('finds hunks that moved (offset) and handles "No newline at end of file"', () => {
    const [f] = parsePatch('--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n one\n-two\n\\ No newline at end of file\n+TWO\n\\ No newline at end of file\n');
    assert.equal(applyHunks('zero\none\ntwo', f.hunks, 'forward'), 'zero\none\nTWO');
    assert.equal(applyHunks('zero\none\nTWO', f.hunks, 'reverse'), 'zero\none\ntwo');
  });
});

describe('lineDiff', () => {
  it('finds the changed lines', () => {
    const d = diffLines(splitLines(BEFORE), splitLines(AFTER));
    assert.deepEqual(countChanges(d), { added: 2, removed: 1 });
    const { preview } = compactHunks(d, 1);
    assert.deepEqual(preview, [' b', '-c', '+C', ' d', '@@', ' g', '+h']);
  });

  it('is a correct edit script (property)', () => {
    const lines = fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 30 });
    fc.assert(
      fc.property(lines, lines, (a, b) => {
        const d = diffLines(a, b);
        assert.deepEqual(
          d.filter((l) => l.op !== '+').map((l) => l.text),
          a,
        );
        assert.deepEqual(
          d.filter((l) => l.op !== '-').map((l) => l.text),
          b,
        );
      }),
    );
  });

  it('falls back to a whole replacement past the edit limit', () => {
    const a = Array.from({ length: 50 }, (_, i) => `a${i}`);
    const b = Array.from({ length: 50 }, (_, i) => `b${i}`);
    const d = diffLines(a, b, 10);
    assert.deepEqual(countChanges(d), { added: 50, removed: 50 });
  });
});
