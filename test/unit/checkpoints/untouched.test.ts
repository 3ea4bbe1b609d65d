// What checkpoints never do: touch the user's repository (its .git is byte-identical afterwards,
// index, refs, logs and stash included), or run anything the workspace or the user configured (a
// filter, diff driver, textconv, fsmonitor or hook planted in the workspace's .gitattributes and
// .git, in HOME's .gitconfig and in GIT_* variables of the environment).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ShadowRepo, threeWay } from '../../../src/checkpoints/shadowRepo';
import { fingerprint, rmrf, tempDir, userGit, write } from './support';

/** A user's repository with a commit, a branch, a stash and a staged change. */
function userRepository(work: string): void {
  userGit(work, ['init', '-q', '-b', 'main']);
  write(work, 'README.md', '# project\n');
  write(work, 'src/app.ts', 'export const a = 1;\n');
  userGit(work, ['add', '-A']);
  userGit(work, ['commit', '-q', '-m', 'first']);
  userGit(work, ['branch', 'feature']);
  write(work, 'src/app.ts', 'export const a = 2;\n');
  userGit(work, ['stash', '-q']);
  write(work, 'README.md', '# project, staged\n');
  userGit(work, ['add', 'README.md']);
  write(work, 'notes.txt', 'untracked\n');
}

describe('Checkpoints: the user’s repository is untouched and nothing of the workspace runs', () => {
  let work: string;
  let store: string;
  let markers: string;
  let home: string;
  let repo: ShadowRepo | undefined;

  beforeEach(() => {
    work = tempDir('work');
    store = tempDir('store');
    markers = tempDir('markers');
    home = tempDir('home');
  });
  afterEach(() => {
    repo?.dispose();
    repo = undefined;
    rmrf(work, store, markers, home);
  });

  it('leaves every byte (and time) of the user’s .git as it was, over several checkpoints, changes and reads', async () => {
    userRepository(work);
    const before = fingerprint(path.join(work, '.git'));
    assert.ok(before.has('refs/stash') && before.has('index') && before.has('logs/refs/stash') && before.has('refs/heads/feature'));
    repo = await ShadowRepo.open({ gitDir: path.join(store, 'w.git'), workTree: work });
    const a = await repo.checkpoint('s');
    write(work, 'src/app.ts', 'export const a = 3;\n');
    write(work, 'src/new.ts', 'new\n');
    const b = await repo.checkpoint('s');
    fs.rmSync(path.join(work, 'notes.txt'));
    const c = await repo.checkpoint('other');
    assert.deepEqual(
      (await repo.changes(a.id, c.id)).map((f) => `${f.status} ${f.path}`),
      ['deleted notes.txt', 'modified src/app.ts', 'added src/new.ts'],
    );
    assert.equal((await repo.read(a.id, 'README.md'))?.toString(), '# project, staged\n');
    assert.equal(await repo.read(b.id, '.git/index'), undefined, 'the user’s .git is not checkpointed');
    await repo.dropTag('other');
    await repo.idle();
    assert.deepEqual(fingerprint(path.join(work, '.git')), before);
    assert.equal(userGit(work, ['stash', 'list']).trim().split('\n').length, 1);
    assert.equal(userGit(work, ['diff', '--cached', '--name-only']).trim(), 'README.md');
  });

  it('runs no filter, diff driver, textconv, fsmonitor or hook planted in the workspace, HOME or the environment', async () => {
    const evil = path.join(home, 'evil.sh');
    fs.writeFileSync(evil, `#!/bin/sh\ntouch "${markers}/ran-$$"\ncat\n`, { mode: 0o755 });
    const drivers = [
      '[filter "evil"]',
      `\tclean = ${evil}`,
      `\tsmudge = ${evil}`,
      '\trequired = true',
      '[diff "evil"]',
      `\ttextconv = ${evil}`,
      `\tcommand = ${evil}`,
      '[merge "evil"]',
      `\tdriver = ${evil} %O %A %B`,
      '[core]',
      `\tfsmonitor = ${evil}`,
      `\tpager = ${evil}`,
      '[diff]',
      `\texternal = ${evil}`,
      '',
    ].join('\n');
    userRepository(work);
    write(work, '.gitattributes', '* filter=evil diff=evil merge=evil\n');
    fs.appendFileSync(path.join(work, '.git', 'config'), drivers);
    for (const hook of ['pre-commit', 'post-commit', 'post-index-change', 'reference-transaction', 'post-checkout', 'fsmonitor-watchman'])
      fs.copyFileSync(evil, path.join(work, '.git', 'hooks', hook));
    write(home, '.gitconfig', drivers);
    write(home, 'xdg/git/config', drivers);
    write(home, 'xdg/git/attributes', '* filter=evil diff=evil\n');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, 'xdg'),
      GIT_CONFIG_PARAMETERS: `'core.fsmonitor=${evil}'`,
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'filter.evil.clean',
      GIT_CONFIG_VALUE_0: evil,
      GIT_EXTERNAL_DIFF: evil,
      GIT_DIR: path.join(work, '.git'),
      GIT_INDEX_FILE: path.join(work, '.git', 'index'),
    };
    // The plant works: the user's own git runs it.
    userGit(work, ['add', '-A'], { HOME: home });
    assert.ok(fs.readdirSync(markers).length > 0, 'the planted commands run for the user’s own git');
    for (const m of fs.readdirSync(markers)) fs.rmSync(path.join(markers, m));
    const gitBefore = fingerprint(path.join(work, '.git'));

    repo = await ShadowRepo.open({ gitDir: path.join(store, 'w.git'), workTree: work, env });
    const a = await repo.checkpoint('s');
    write(work, 'src/app.ts', 'export const a = 4;\n');
    const b = await repo.checkpoint('s');
    assert.deepEqual(await repo.changes(a.id, b.id), [{ path: 'src/app.ts', status: 'modified', added: 1, removed: 1, binary: false }]);
    assert.equal((await repo.read(b.id, 'src/app.ts'))?.toString(), 'export const a = 4;\n', 'stored as on disk, no clean filter');
    await repo.idle();

    const saved = { ...process.env };
    Object.assign(process.env, env);
    try {
      const merged = await threeWay('git', 'a\nb\nc\n', 'a\nb\nc\nd\n', 'A\nb\nc\n');
      assert.deepEqual(merged, { text: 'A\nb\nc\nd\n', conflicts: 0 });
    } finally {
      for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
      Object.assign(process.env, saved);
    }
    assert.deepEqual(fs.readdirSync(markers), [], 'nothing planted ran');
    assert.deepEqual(fingerprint(path.join(work, '.git')), gitBefore);
  });
});
