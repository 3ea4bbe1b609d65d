import assert from 'node:assert/strict';
import {
  BINARY_NOTE,
  forwardApply,
  hunkTexts,
  MAX_PATCH_CHARS,
  parseSection,
  patchSection,
  reverseApply,
  reviewTexts,
} from '../../../src/state/attribution/patchTexts';
import { WorkStore } from '../../../src/state/attribution/workStore';

// Made by `git diff --cached` in a scratch repository: a binary file, a last line without a
// newline, a deleted file, two hunks of one file, a new file, and a file with CRLF line ends.
const GIT_PATCH = `diff --git a/img.bin b/img.bin
index 8352675..1592e5c 100644
Binary files a/img.bin and b/img.bin differ
diff --git a/notes.txt b/notes.txt
index 54d55bf..2f43848 100644
--- a/notes.txt
+++ b/notes.txt
@@ -1,3 +1,3 @@
 one
 two
-three
\\ No newline at end of file
+THREE
diff --git a/old.txt b/old.txt
deleted file mode 100644
index a85183a..0000000
--- a/old.txt
+++ /dev/null
@@ -1,2 +0,0 @@
-gone 1
-gone 2
diff --git a/src/app.ts b/src/app.ts
index ac9837c..6707103 100644
--- a/src/app.ts
+++ b/src/app.ts
@@ -1,6 +1,6 @@
 line 1
 line 2
-line 3
+line three
 line 4
 line 5
 line 6
@@ -22,9 +22,10 @@ line 21
 line 22
 line 23
 line 24
-line 25
+line twenty-five
 line 26
 line 27
 line 28
+line 28b
 line 29
 line 30
diff --git a/src/new.ts b/src/new.ts
new file mode 100644
index 0000000..95c3c22
--- /dev/null
+++ b/src/new.ts
@@ -0,0 +1,2 @@
+fresh 1
+fresh 2
diff --git a/win.txt b/win.txt
index b5eff57..d5a6cc6 100644
--- a/win.txt
+++ b/win.txt
@@ -1,3 +1,3 @@
 a\r
-b\r
+B\r
 c\r
`;

const lines = (n: number, edit: (i: number) => string[] = (i) => [`line ${i}`]): string => {
  let s = '';
  for (let i = 1; i <= n; i++) for (const l of edit(i)) s += `${l}\n`;
  return s;
};
const APP_BEFORE = lines(30);
const APP_AFTER = lines(30, (i) => (i === 3 ? ['line three'] : i === 25 ? ['line twenty-five'] : i === 28 ? ['line 28', 'line 28b'] : [`line ${i}`]));
const ROOT = '/home/u/proj';
const section = (p: string): string => patchSection(GIT_PATCH, p, ROOT)!;

describe('patchTexts', () => {
  describe('patchSection', () => {
    it("finds one file's section in a multi-file git patch, by relative, absolute or Windows path", () => {
      const s = patchSection(GIT_PATCH, 'src/app.ts')!;
      assert.ok(s.startsWith('diff --git a/src/app.ts b/src/app.ts\n'));
      assert.ok(s.endsWith(' line 30\n'));
      assert.ok(!s.includes('new.ts') && !s.includes('old.txt'));
      assert.equal(patchSection(GIT_PATCH, `${ROOT}/src/app.ts`, ROOT), s);
      assert.equal(patchSection(GIT_PATCH, `${ROOT}/src/app.ts`), s, 'by the path ending, without a root');
      assert.equal(patchSection(GIT_PATCH, 'C:\\proj\\src\\app.ts', 'C:\\proj'), s);
      assert.equal(patchSection(GIT_PATCH, `${ROOT}/other/app.ts`), undefined);
      assert.equal(patchSection(GIT_PATCH, `${ROOT}/pp.ts`), undefined, 'a path ending inside a name does not match');
    });

    it('finds added and deleted files (/dev/null) and their parts', () => {
      assert.ok(section(`${ROOT}/src/new.ts`).includes('new file mode'));
      assert.ok(section(`${ROOT}/old.txt`).includes('deleted file mode'));
      assert.deepEqual([parseSection(section(`${ROOT}/src/new.ts`)).added, parseSection(section(`${ROOT}/old.txt`)).deleted], [true, true]);
    });

    it('reads plain unified diffs without prefixes, with dates, and prefers the longest matching path', () => {
      const plain = [
        '--- lib/src/app.ts\t2024-01-01 10:00:00',
        '+++ lib/src/app.ts\t2024-01-01 10:00:01',
        '@@ -1 +1 @@',
        '-x',
        '+y',
        '--- src/app.ts',
        '+++ src/app.ts',
        '@@ -1,2 +1,2 @@',
        '--- not a header: a removed line',
        '+y',
        ' z',
        '',
      ].join('\n');
      assert.ok(patchSection(plain, '/r/lib/src/app.ts')!.startsWith('--- lib/src/app.ts'));
      const s = patchSection(plain, '/r/src/app.ts', '/r')!;
      assert.ok(s.startsWith('--- src/app.ts\n') && s.endsWith(' z\n'), s);
      assert.equal(forwardApply('-- not a header: a removed line\nz\n', s), 'y\nz\n');
    });

    it('reads quoted paths (spaces, octal escapes)', () => {
      const q =
        'diff --git "a/my caf\\303\\251.txt" "b/my caf\\303\\251.txt"\n--- "a/my caf\\303\\251.txt"\n+++ "b/my caf\\303\\251.txt"\n@@ -1 +1 @@\n-a\n+b\n';
      assert.equal(patchSection(q, '/w/my café.txt'), q);
    });

    it('a binary file: its part stops at the line that says so, and no texts come from it', () => {
      const s = section(`${ROOT}/img.bin`);
      assert.equal(s, 'diff --git a/img.bin b/img.bin\nindex 8352675..1592e5c 100644\nBinary files a/img.bin and b/img.bin differ\n');
      const lit = 'diff --git a/img.bin b/img.bin\nindex 835..159 100644\nGIT binary patch\nliteral 3\nKcmZQzWCj2L2ml2D\n\nliteral 3\nKcmZQzWC8#H2LJ>B\n\n';
      assert.equal(patchSection(lit, 'img.bin'), 'diff --git a/img.bin b/img.bin\nindex 835..159 100644\nGIT binary patch\n');
      assert.equal(reverseApply('x', s), undefined);
      assert.deepEqual(reviewTexts({ before: undefined, after: undefined, patch: s }, 'x'), {
        before: BINARY_NOTE,
        after: BINARY_NOTE,
        partial: true,
        binary: true,
      });
    });

    it('leaves out a part over the cap', () => {
      const big = `--- a/big.txt\n+++ b/big.txt\n@@ -0,0 +1,2 @@\n+${'x'.repeat(MAX_PATCH_CHARS)}\n+y\n`;
      assert.equal(patchSection(big, 'big.txt'), undefined);
    });
  });

  describe('forwardApply / reverseApply', () => {
    it('apply the hunks both ways, exactly', () => {
      const s = section(`${ROOT}/src/app.ts`);
      assert.equal(reverseApply(APP_AFTER, s), APP_BEFORE);
      assert.equal(forwardApply(APP_BEFORE, s), APP_AFTER);
      assert.equal(forwardApply(APP_AFTER, s), undefined, 'already applied: line 3 is not there');
      assert.equal(reverseApply(APP_AFTER.replace('line 26', 'line 26 edited'), s), undefined, 'no fuzz on context lines');
    });

    it('find hunks at shifted lines, as patch does', () => {
      const s = section(`${ROOT}/src/app.ts`);
      const head = 'new 1\nnew 2\nnew 3\nnew 4\nnew 5\n';
      assert.equal(reverseApply(head + APP_AFTER, s), head + APP_BEFORE);
      const mid = (t: string): string => t.replace('line 10\n', 'line 10\nextra a\nextra b\n');
      assert.equal(forwardApply(mid(APP_BEFORE), s), mid(APP_AFTER));
    });

    it('keep "\\ No newline at end of file" right both ways', () => {
      const s = section(`${ROOT}/notes.txt`);
      assert.equal(forwardApply('one\ntwo\nthree', s), 'one\ntwo\nTHREE\n');
      assert.equal(reverseApply('one\ntwo\nTHREE\n', s), 'one\ntwo\nthree');
      assert.equal(forwardApply('one\ntwo\nthree\n', s), undefined, 'the old side must end without a newline');
      assert.equal(reverseApply('one\ntwo\nTHREE', s), undefined);
    });

    it('keep CRLF line ends, also when the whole patch came with CRLF', () => {
      const s = section(`${ROOT}/win.txt`);
      assert.equal(forwardApply('a\r\nb\r\nc\r\n', s), 'a\r\nB\r\nc\r\n');
      assert.equal(reverseApply('a\r\nB\r\nc\r\n', s), 'a\r\nb\r\nc\r\n');
      const crlfPatch = section(`${ROOT}/notes.txt`).replace(/\n/g, '\r\n');
      assert.equal(forwardApply('one\ntwo\nthree', crlfPatch), 'one\ntwo\nTHREE\n');
      const lfPatchOfCrlfFile = '--- a/w\n+++ b/w\n@@ -1,2 +1,3 @@\n a\n+new\n b\n';
      assert.equal(forwardApply('a\r\nb\r\n', lfPatchOfCrlfFile), 'a\r\nnew\r\nb\r\n', 'a new line takes the file line end');
    });

    it('rebuild new and deleted files from the patch alone', () => {
      const added = section(`${ROOT}/src/new.ts`);
      assert.equal(forwardApply('', added), 'fresh 1\nfresh 2\n');
      assert.equal(reverseApply('fresh 1\nfresh 2\n', added), '');
      const deleted = section(`${ROOT}/old.txt`);
      assert.equal(reverseApply('', deleted), 'gone 1\ngone 2\n');
      assert.equal(forwardApply('gone 1\ngone 2\n', deleted), '');
    });

    it('refuse a cut-off hunk', () => {
      const cut = section(`${ROOT}/src/app.ts`).split('\n').slice(0, -4).join('\n');
      assert.equal(reverseApply(APP_AFTER, cut), undefined);
    });
  });

  describe('hunkTexts', () => {
    it("shows each hunk's two sides, with markers where lines are left out", () => {
      const t = hunkTexts(section(`${ROOT}/src/app.ts`));
      const side = (first: string[], second: string[], next: number): string =>
        [...first, '⋯ (lines 7–21 not in the patch) ⋯', ...second, `⋯ (lines from ${next} on, if any, not in the patch) ⋯`, ''].join('\n');
      const l = (...n: number[]): string[] => n.map((i) => `line ${i}`);
      assert.equal(t.before, side(l(1, 2, 3, 4, 5, 6), l(22, 23, 24, 25, 26, 27, 28, 29, 30), 31));
      assert.equal(
        t.after,
        side(
          ['line 1', 'line 2', 'line three', 'line 4', 'line 5', 'line 6'],
          [...l(22, 23, 24), 'line twenty-five', ...l(26, 27, 28), 'line 28b', ...l(29, 30)],
          32,
        ),
      );
    });

    it('a hunk after line 1 gets a leading marker; a side known to end gets none at the end', () => {
      const t = hunkTexts('--- a/x\n+++ b/x\n@@ -5 +5 @@\n-e\n+E\n\\ No newline at end of file\n');
      assert.equal(t.before, '⋯ (lines 1–4 not in the patch) ⋯\ne\n⋯ (lines from 6 on, if any, not in the patch) ⋯\n');
      assert.equal(t.after, '⋯ (lines 1–4 not in the patch) ⋯\nE\n');
      assert.deepEqual(hunkTexts(section(`${ROOT}/src/new.ts`)), { before: '', after: 'fresh 1\nfresh 2\n' });
    });
  });

  describe('reviewTexts', () => {
    const app = section(`${ROOT}/src/app.ts`);
    const none = { before: undefined, after: undefined };

    it('passes full texts through, and has nothing without texts or a patch', () => {
      assert.deepEqual(reviewTexts({ before: 'a', after: 'b', patch: app }, 'zzz'), { before: 'a', after: 'b', partial: false });
      assert.equal(reviewTexts(none, 'x'), undefined);
    });

    it('rebuilds the before text from the file as it is now', () => {
      assert.deepEqual(reviewTexts({ ...none, patch: app }, APP_AFTER), { before: APP_BEFORE, after: APP_AFTER, partial: false });
    });

    it('takes the file as the before text when the change is not in it (not applied yet, or put back)', () => {
      assert.deepEqual(reviewTexts({ ...none, patch: app }, APP_BEFORE), { before: APP_BEFORE, after: APP_AFTER, partial: false });
    });

    it("shows the hunks' sides, partial, when the file has changed since", () => {
      const changed = APP_AFTER.replace('line 2\n', 'line 2 changed\n').replace('line 26\n', '');
      const t = hunkTexts(app);
      assert.deepEqual(reviewTexts({ ...none, patch: app }, changed), { before: t.before, after: t.after, partial: true });
      assert.deepEqual(reviewTexts({ ...none, patch: app }, undefined), { before: t.before, after: t.after, partial: true }, 'not readable');
      assert.deepEqual(reviewTexts({ ...none, patch: app }, null), { before: t.before, after: t.after, partial: true }, 'deleted since');
    });

    it('rebuilds new and deleted files without the file', () => {
      const added = section(`${ROOT}/src/new.ts`);
      assert.deepEqual(reviewTexts({ before: null, after: undefined, patch: added }, null), { before: null, after: 'fresh 1\nfresh 2\n', partial: false });
      assert.deepEqual(reviewTexts({ ...none, patch: added }, 'fresh 1\nfresh 2\nedited since\n'), {
        before: null,
        after: 'fresh 1\nfresh 2\n',
        partial: false,
      });
      const del = section(`${ROOT}/old.txt`);
      assert.deepEqual(reviewTexts({ ...none, patch: del }, 'made again\n'), { before: 'gone 1\ngone 2\n', after: null, partial: false });
      assert.deepEqual(reviewTexts({ ...none, patch: del }, null), { before: 'gone 1\ngone 2\n', after: null, partial: false });
    });

    it('chains the sections of several changes of one file, newest last', () => {
      const one = '--- a/f\n+++ b/f\n@@ -2,3 +2,3 @@\n line 2\n-line 3\n+line three\n line 4\n';
      const two = '--- a/f\n+++ b/f\n@@ -24,3 +24,3 @@\n line 24\n-line 25\n+line twenty-five\n line 26\n';
      const mid = APP_BEFORE.replace('line 3\n', 'line three\n');
      const now = mid.replace('line 25\n', 'line twenty-five\n');
      assert.deepEqual(reviewTexts({ ...none, patch: [one, two] }, now), { before: APP_BEFORE, after: now, partial: false });
      assert.deepEqual(reviewTexts({ before: APP_BEFORE, after: undefined, patch: [one, two] }, 'unrelated'), {
        before: APP_BEFORE,
        after: now,
        partial: false,
      });
      assert.deepEqual(reviewTexts({ before: undefined, after: now, patch: [one, two] }, 'unrelated'), { before: APP_BEFORE, after: now, partial: false });
    });
  });

  describe('the work index keeps the section', () => {
    const A = 'agent';
    const S = 'sess';
    const diffCall = (id: string, content: object): Parameters<WorkStore['apply']>[1] =>
      ({ sessionId: S, kind: 'tool_call', toolCallId: id, fields: { title: id, status: 'completed', content: [content] } }) as Parameters<
        WorkStore['apply']
      >[1];

    it('a v2 diff with only a patch keeps each file its section, and the review texts come out right', () => {
      const w = new WorkStore();
      const changes = [
        { operation: 'modify', path: `${ROOT}/src/app.ts` },
        { operation: 'add', path: `${ROOT}/src/new.ts` },
        { operation: 'delete', path: `${ROOT}/old.txt` },
        { operation: 'modify', path: `${ROOT}/notes.txt` },
      ];
      w.apply(A, diffCall('c1', { type: 'diff', changes, patch: { format: 'git_patch', text: GIT_PATCH } }), 1000);
      const step = w.unplanned(A, S)!;
      const byPath = new Map(w.stepChanges(A, S, step).map((c) => [c.path, c]));
      assert.equal(byPath.get(`${ROOT}/src/app.ts`)!.first.patch, section(`${ROOT}/src/app.ts`));
      const review = (p: string, live: string | null | undefined): ReturnType<typeof reviewTexts> => {
        const c = byPath.get(p)!;
        return reviewTexts({ before: c.first.before, after: c.last.after, patch: c.all.flatMap((x) => (x.patch ? [x.patch] : [])) }, live);
      };
      assert.deepEqual(review(`${ROOT}/src/app.ts`, APP_AFTER), { before: APP_BEFORE, after: APP_AFTER, partial: false });
      assert.deepEqual(review(`${ROOT}/src/new.ts`, undefined), { before: null, after: 'fresh 1\nfresh 2\n', partial: false });
      assert.deepEqual(review(`${ROOT}/old.txt`, null), { before: 'gone 1\ngone 2\n', after: null, partial: false });
      assert.deepEqual(review(`${ROOT}/notes.txt`, 'one\ntwo\nTHREE\n'), { before: 'one\ntwo\nthree', after: 'one\ntwo\nTHREE\n', partial: false });
    });

    it('keeps no section where the diff has full texts; drops a section over the caps as texts are', () => {
      const w = new WorkStore();
      const patch = { format: 'git_patch', text: GIT_PATCH };
      const texts = [{ path: `${ROOT}/src/app.ts`, oldText: APP_BEFORE, newText: APP_AFTER }];
      w.apply(A, diffCall('c1', { type: 'diff', changes: [{ operation: 'modify', path: `${ROOT}/src/app.ts` }], patch, texts }), 1000);
      const big = `--- a/big.txt\n+++ b/big.txt\n@@ -0,0 +1,1 @@\n+${'x'.repeat(MAX_PATCH_CHARS - 100)}\n`;
      const changes = [{ operation: 'add', path: `${ROOT}/big.txt` }];
      for (let i = 0; i < 9; i++) w.apply(A, diffCall(`big${i}`, { type: 'diff', changes, patch: { format: 'git_patch', text: big } }), 2000 + i);
      const all = w.stepChanges(A, S, w.unplanned(A, S)!);
      const app = all.find((c) => c.path.endsWith('app.ts'))!.first;
      assert.equal(app.patch, undefined);
      assert.equal(app.before, APP_BEFORE);
      const bigs = all.find((c) => c.path.endsWith('big.txt'))!.all;
      assert.equal(bigs.filter((c) => c.patch !== undefined).length, 7, 'the session keeps 8 Mi characters: 7 such sections');
      assert.ok(bigs.slice(7).every((c) => c.textDropped && c.patch === undefined));
      const over = `--- a/big.txt\n+++ b/big.txt\n@@ -0,0 +1,1 @@\n+${'x'.repeat(MAX_PATCH_CHARS)}\n`;
      w.apply(
        A,
        diffCall('over', {
          type: 'diff',
          changes: [{ operation: 'add', path: `${ROOT}/o.txt` }],
          patch: { format: 'git_patch', text: over.replace(/big/g, 'o') },
        }),
        3000,
      );
      const o = w.stepChanges(A, S, w.unplanned(A, S)!).find((c) => c.path.endsWith('o.txt'))!.first;
      assert.deepEqual([o.patch, o.textDropped], [undefined, true]);
    });
  });
});
