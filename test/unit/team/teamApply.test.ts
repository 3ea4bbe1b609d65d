// Apply Worktree Changes through the Team service, in plain Node against real temporary
// repositories, the UI port answered from a script: merge and squash on a clean main tree (the
// files land, the commits are as expected), a dirty main tree refused with its files (nothing
// changed), a conflict then Abort (the main tree byte for byte as before), and the sentences of a
// failed apply in a German window.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ApplyConflict } from '../../../src/app/team/teamPorts';
import { reasonOf } from '../../../src/worktrees/reasons';
import { conflictNotice, newsText, reasonText } from '../../../src/ui/team/teamWords';
import { german } from '../l10n/german';
import { makeRepo, ScriptedUi, sh, snapshot, teamWorld } from './support';

describe('Team service: Apply Worktree Changes on a real repository', function () {
  this.timeout(30000);
  let dir: string;
  let repo: string;
  beforeEach(() => ({ dir, repo } = makeRepo()));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** A worktree session whose worktree changed shared.txt's first line to `line` and wrote `file`. */
  async function worked(w: ReturnType<typeof teamWorld>, name: string, line: string, file = `${name}.txt`) {
    const { record } = await w.team.newSessionInWorktree({ folder: repo, agentId: 'demo', base: 'HEAD', name });
    fs.writeFileSync(path.join(record.path, 'shared.txt'), `${line}\nsecond\n`);
    fs.writeFileSync(path.join(record.path, file), `${name}\n`);
    return record;
  }

  for (const mode of ['merge', 'squash'] as const) {
    it(`${mode}: commits the worktree on its branch, asks with every file listed, and the files land in the main tree`, async () => {
      const ui = new ScriptedUi({ mode, confirmApply: true });
      const w = teamWorld(ui);
      const r = await worked(w, 'a', 'from a');
      const head = sh(repo, 'rev-parse', 'HEAD').trim();
      assert.equal(await w.team.apply({ path: r.path }), 'applied');
      assert.deepEqual(ui.questions(), ['pickMode', 'confirmApply']);
      assert.deepEqual(ui.args('confirmApply').slice(1), [mode, ['a.txt', 'shared.txt']]);
      // The worktree's work is one commit on its branch; the worktree is clean.
      assert.equal(sh(r.path, 'log', '--format=%s', `${r.baseCommit}..${r.branch}`).trim(), `Work of the ACP session s1 (${r.branch})`);
      assert.equal(sh(r.path, 'status', '--porcelain'), '');
      assert.equal(fs.readFileSync(path.join(repo, 'shared.txt'), 'utf8'), 'from a\nsecond\n');
      assert.equal(fs.readFileSync(path.join(repo, 'a.txt'), 'utf8'), 'a\n');
      if (mode === 'merge') {
        // A merge commit: HEAD before and the branch as its parents; nothing left uncommitted.
        assert.equal(sh(repo, 'rev-parse', 'HEAD^1').trim(), head);
        assert.equal(sh(repo, 'rev-parse', 'HEAD^2').trim(), sh(repo, 'rev-parse', r.branch).trim());
        assert.equal(sh(repo, 'status', '--porcelain'), '');
      } else {
        // Staged, not committed: HEAD is where it was.
        assert.equal(sh(repo, 'rev-parse', 'HEAD').trim(), head);
        assert.equal(sh(repo, 'status', '--porcelain'), 'A  a.txt\nM  shared.txt\n');
      }
      assert.deepEqual(ui.told, [{ kind: 'applied', mode, branch: r.branch, files: 2 }]);
    });
  }

  it('changes nothing in the main tree when the confirmation is cancelled', async () => {
    const ui = new ScriptedUi({ mode: 'merge', confirmApply: false });
    const w = teamWorld(ui);
    const r = await worked(w, 'a', 'from a');
    const before = snapshot(repo);
    assert.equal(await w.team.apply({ path: r.path }), undefined);
    assert.deepEqual(snapshot(repo), before);
    assert.deepEqual(ui.told, []);
  });

  it('refuses a dirty main tree before anything: the reason names its files, nothing changes anywhere', async () => {
    const ui = new ScriptedUi({ mode: 'merge', confirmApply: true });
    const w = teamWorld(ui);
    const r = await worked(w, 'a', 'from a');
    fs.appendFileSync(path.join(repo, 'shared.txt'), 'not committed\n');
    const main = snapshot(repo);
    const work = snapshot(r.path);
    const err = await w.team.apply({ path: r.path }).then(
      () => assert.fail('applied'),
      (e: unknown) => e,
    );
    assert.deepEqual(reasonOf(err), { code: 'dirty-main-tree', files: ['shared.txt'] });
    assert.deepEqual(ui.asked, [], 'nothing asked');
    assert.deepEqual(snapshot(repo), main);
    assert.deepEqual(snapshot(r.path), work, 'the worktree was not committed either');
  });

  for (const mode of ['merge', 'squash'] as const) {
    it(`${mode}: a conflict is shown with its files, and Abort puts the main tree back byte for byte`, async () => {
      const ui = new ScriptedUi({ mode: 'merge', confirmApply: true });
      const w = teamWorld(ui);
      const a = await worked(w, 'a', 'from a');
      const b = await worked(w, 'b', 'from b');
      assert.equal(await w.team.apply({ path: a.path }), 'applied');
      const before = snapshot(repo);
      let abort!: (yes: boolean) => void;
      ui.answers = { mode, confirmApply: true, abort: new Promise((r) => (abort = r)) };
      ui.asked.length = 0;
      assert.equal(await w.team.apply({ path: b.path }), 'conflict');
      const [shown] = ui.args<[ApplyConflict]>('showConflicts');
      assert.deepEqual({ ...shown, record: shown.record.path }, { record: b.path, mode, files: ['shared.txt'] });
      assert.match(fs.readFileSync(path.join(repo, 'shared.txt'), 'utf8'), /<<<<<<< [^\n]*\nfrom a\n=======\nfrom b\n>>>>>>> /);
      assert.notDeepEqual(snapshot(repo), before);
      const heard = ui.told.length;
      abort(true);
      await ui.heard(heard);
      assert.deepEqual(ui.problems, []);
      assert.deepEqual(ui.told.at(-1), { kind: 'aborted', mode, branch: b.branch });
      assert.deepEqual(ui.questions().slice(-2), ['showConflicts', 'closeConflicts'], 'the merge editors closed before the abort');
      assert.deepEqual(snapshot(repo), before);
      // Nothing of b lost: its branch holds its work.
      assert.equal(sh(repo, 'show', `${b.branch}:shared.txt`), 'from b\nsecond\n');
    });
  }

  it('a German window words a failed apply in German: dirty main tree, git failing, the conflict notice, an abort that failed', async () => {
    const ui = new ScriptedUi({ mode: 'merge', confirmApply: true });
    const w = teamWorld(ui);
    const a = await worked(w, 'a', 'from a');
    // git refuses the merge itself: an untracked file of the main tree would be overwritten.
    fs.writeFileSync(path.join(repo, 'a.txt'), 'mine\n');
    const failed = reasonOf(await w.team.apply({ path: a.path }).catch((e: unknown) => e));
    assert.equal(failed?.code, 'apply-failed');
    const gitFailing = reasonText(failed!, german);
    assert.match(gitFailing, /^Übernehmen von acp\/demo\/a fehlgeschlagen: .+\. Es wurde nichts übernommen\.$/);
    fs.rmSync(path.join(repo, 'a.txt'));
    fs.appendFileSync(path.join(repo, 'shared.txt'), 'not committed\n');
    const dirty = reasonText(reasonOf(await w.team.apply({ path: a.path }).catch((e: unknown) => e))!, german);
    assert.equal(
      dirty,
      'Der Hauptbaum hat nicht committete Änderungen (shared.txt): Committen oder stashen Sie sie zuerst, dann übernehmen Sie erneut. Es wurde nichts geändert.',
    );
    sh(repo, 'checkout', '--', 'shared.txt');
    // Abort with no apply in progress: git refuses, the service tells what to do.
    const conflict: ApplyConflict = { record: a, mode: 'merge', files: ['shared.txt'] };
    assert.equal(await w.team.abort(conflict), false);
    const abortFailed = reasonText(ui.problems[0]!, german);
    assert.match(
      abortFailed,
      /^Abbrechen des Merges fehlgeschlagen: fatal: .*\. Die Konflikte sind noch im Hauptbaum: Lösen Sie sie, oder führen Sie „git merge --abort“ in .* aus\.$/,
    );
    const notice = conflictNotice(conflict, german);
    assert.match(notice, /^acp\/demo\/a steht in 1 Datei in Konflikt mit dem Hauptbaum: shared\.txt\. Jede ist im Merge-Editor geöffnet/);
    assert.match(newsText({ kind: 'aborted', mode: 'squash', branch: a.branch }, german), /^Der Squash von acp\/demo\/a wurde rückgängig gemacht/);
    // No English sentence of ours is left in them (git's own line stays as git said it).
    const gitLines = [failed, ui.problems[0]].map((r) => (r && 'gitLine' in r ? r.gitLine : ''));
    for (const text of [gitFailing.replace(gitLines[0]!, ''), dirty, abortFailed.replace(gitLines[1]!, ''), notice])
      assert.doesNotMatch(text, /\b(the|failed|Nothing|commit or stash|conflicts with)\b/, text);
  });
});
