// Compare Sessions through the Team service, in plain Node against a real temporary repository, the
// UI port answered from a script: what each session did (its plan's steps side by side, the files
// it changed against its base, committed or not, new files included) is handed to the view; a
// worktree folder deleted outside VS Code is refused with its reason.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Comparison } from '../../../src/app/team/teamPorts';
import { reasonOf } from '../../../src/worktrees/reasons';
import { makeRepo, ScriptedUi, sh, teamWorld } from './support';

describe('Team service: Compare Sessions on a real repository', function () {
  this.timeout(30000);
  let dir: string;
  let repo: string;
  beforeEach(() => ({ dir, repo } = makeRepo()));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('hands the view both plans side by side and the files each changed against its base', async () => {
    const ui = new ScriptedUi({ session: (list) => list[0] });
    const steps: Record<string, { content: string; status: string }[]> = {
      s1: [
        { content: 'Write the note', status: 'completed' },
        { content: 'Sign the file', status: 'completed' },
      ],
      s2: [{ content: 'Sign the file', status: 'in_progress' }],
    };
    const { team } = teamWorld(ui, undefined, { steps: (ref) => steps[ref.sessionId] ?? [] });
    const a = (await team.newSessionInWorktree({ folder: repo, agentId: 'demo', base: 'HEAD', name: 'a' })).record;
    const b = (await team.newSessionInWorktree({ folder: repo, agentId: 'demo', base: 'HEAD', name: 'b' })).record;
    fs.writeFileSync(path.join(a.path, 'note.txt'), 'new\n');
    sh(a.path, 'add', '-A');
    sh(a.path, 'commit', '-qm', 'note');
    fs.writeFileSync(path.join(b.path, 'shared.txt'), 'signed\nsecond\n');
    sh(b.path, 'commit', '-qam', 'sign');
    fs.rmSync(path.join(b.path, 'shared.txt'));
    fs.writeFileSync(path.join(b.path, 'other.txt'), 'x\n');
    const text = await team.compare(undefined, { agentId: 'demo', sessionId: 's2' });
    assert.deepEqual(ui.questions(), ['pickSession', 'showComparison'], 'the first asked, the second given');
    const [c] = ui.args<[Comparison]>('showComparison');
    assert.equal(c.text, text);
    assert.deepEqual([c.a.label, c.b.label], ['demo on acp/demo/a', 'demo on acp/demo/b']);
    assert.match(text!, /^A: demo on acp\/demo\/a — 2\/2 steps done$/m);
    assert.match(text!, /^\[x\] \| \[~\] {2}Sign the file$/m);
    assert.match(text!, /^Done by A only: Write the note; Sign the file$/m);
    assert.deepEqual(
      c.changes.map((x) => [x.record.path, x.files]),
      [
        [a.path, [{ status: 'A', path: 'note.txt' }]],
        [
          b.path,
          [
            { status: 'A', path: 'other.txt' },
            { status: 'D', path: 'shared.txt' },
          ],
        ],
      ],
    );
  });

  it('never takes two different steps for one: "Create alpha.txt" and "Create bravo.txt" stay apart, with the files each wrote', async () => {
    const ui = new ScriptedUi({});
    const steps: Record<string, { content: string; status: string; files: string[] }[]> = {
      s1: [{ content: 'Create alpha.txt', status: 'completed', files: ['alpha.txt'] }],
      s2: [{ content: 'Create bravo.txt', status: 'completed', files: ['bravo.txt'] }],
    };
    const { team } = teamWorld(ui, undefined, { steps: (ref) => steps[ref.sessionId] ?? [], agentName: () => 'Claude' });
    const a = (await team.newSessionInWorktree({ folder: repo, agentId: 'claude', base: 'HEAD', name: 'a' })).record;
    const b = (await team.newSessionInWorktree({ folder: repo, agentId: 'claude', base: 'HEAD', name: 'b' })).record;
    fs.writeFileSync(path.join(a.path, 'alpha.txt'), 'a\n');
    fs.writeFileSync(path.join(b.path, 'bravo.txt'), 'b\n');
    for (const r of [a, b]) fs.appendFileSync(path.join(r.path, 'shared.txt'), `${r.branch}\n`);
    const text = (await team.compare({ agentId: 'claude', sessionId: 's1' }, { agentId: 'claude', sessionId: 's2' }))!;
    assert.match(text, /^\[x\] \| {6}Create alpha\.txt {2}— only A {2}\[alpha\.txt\]$/m);
    assert.match(text, /^ {4}\| \[x\] {2}Create bravo\.txt {2}— only B {2}\[bravo\.txt\]$/m);
    assert.match(text, /^Done by A only: Create alpha\.txt$/m);
    assert.match(text, /^Done by B only: Create bravo\.txt$/m);
    assert.match(text, /^A only: alpha\.txt$/m);
    assert.match(text, /^B only: bravo\.txt$/m);
    assert.match(text, /^Both: shared\.txt$/m);
    const [c] = ui.args<[Comparison]>('showComparison');
    assert.deepEqual([c.a.name, c.b.name], ['Claude (a)', 'Claude (b)'], 'short names for the titles');
  });

  it('refuses a worktree whose folder was deleted outside VS Code, naming it', async () => {
    const ui = new ScriptedUi({});
    const w = teamWorld(ui);
    await w.team.newSessionInWorktree({ folder: repo, agentId: 'demo', base: 'HEAD', name: 'a' });
    const b = (await w.team.newSessionInWorktree({ folder: repo, agentId: 'demo', base: 'HEAD', name: 'b' })).record;
    fs.rmSync(b.path, { recursive: true, force: true });
    const err = await w.team.compare({ agentId: 'demo', sessionId: 's1' }, { agentId: 'demo', sessionId: 's2' }).catch((e: unknown) => e);
    assert.deepEqual(reasonOf(err), { code: 'compare-folder-gone', path: b.path });
    assert.deepEqual(ui.asked, []);
  });
});
