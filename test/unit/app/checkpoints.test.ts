// Checkpoints through the real parts: the checkpoint service (src/app/checkpoints) over real shadow
// repositories (src/checkpoints, real git) of a temp folder, the real work index, Revert's and
// Restore's plans. The agent here is a script of session events and file writes on disk, as an
// agent that writes files itself would do them.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Checkpoints } from '../../../src/app/checkpoints/checkpoints';
import type { CheckpointReason } from '../../../src/app/checkpoints/reasons';
import { english } from '../../../src/common/l10n';
import { checkpointWords } from '../../../src/ui/checkpointWords';
import { intervalOf, recordOf } from '../../../src/app/history/intervalRecords';
import { planRestore } from '../../../src/app/checkpoints/restorePlan';
import type { CheckpointRecord } from '../../../src/app/history/records';
import { planRevert } from '../../../src/app/revertPlan';
import { ShadowRepo, threeWay } from '../../../src/checkpoints/shadowRepo';
import type { SessionEvent } from '../../../src/protocol/domain';
import { PLAN_ENTRY_META_KEY, WorkStore, type Step } from '../../../src/state/attribution/workStore';

const A = 'agent:x';
const S = 's1';
const plan = (...statuses: string[]): SessionEvent => ({
  sessionId: S,
  kind: 'plan_update',
  plan: { type: 'items', planId: 'p', entries: statuses.map((status, i) => ({ content: `step ${i}`, status, priority: 'medium' })) },
});

function world() {
  const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-ckpt-store-'));
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-ckpt-ws-')));
  const work = new WorkStore();
  const records: CheckpointRecord[] = [];
  const problems: CheckpointReason[] = [];
  let n = 0;
  const cps = new Checkpoints({
    work,
    folders: () => [folder],
    isWorkspaceFolder: (f) => f === folder,
    open: (f) => ShadowRepo.open({ gitDir: path.join(storage, 'shadow.git'), workTree: f }),
    record: (_a, _s, rec) => records.push(rec),
    merge: (base, current, wanted) => threeWay('git', base, current, wanted),
    problem: (m) => problems.push(m),
    log: () => undefined,
    enabled: () => true,
    now: () => ++n * 1000,
  });
  const apply = (e: SessionEvent): void => {
    work.apply(A, e, ++n * 1000);
    cps.afterEvent(A, e);
  };
  const write = (name: string, text: string): void => fs.writeFileSync(path.join(folder, name), text);
  const step = (i: number): Step => work.stepAt(A, S, 'p', i)!;
  const files = (i: number): string[] => work.stepChanges(A, S, step(i)).map((c) => path.basename(c.path));
  return { storage, folder, work, cps, records, problems, apply, write, step, files };
}

/** A turn: step 0 changes a.txt, step 1 changes b.txt (the agent writes them itself). */
async function twoSteps(w: ReturnType<typeof world>): Promise<void> {
  w.write('a.txt', 'a1\na2\na3\n');
  w.write('b.txt', 'b1\n');
  await w.cps.turnStarting(A, S);
  w.apply(plan('in_progress', 'pending'));
  await w.cps.settled(A, S);
  w.write('a.txt', 'a1\nA2\na3\na4\n');
  w.apply(plan('completed', 'in_progress'));
  await w.cps.settled(A, S);
  w.write('b.txt', 'b1\nb2\n');
  fs.writeFileSync(path.join(w.folder, 'new.txt'), 'new\n');
  w.apply(plan('completed', 'completed'));
  w.cps.turnEnded(A, S);
  await w.cps.settled(A, S);
}

describe('checkpoints (service, work index, revert and restore, real git)', function () {
  this.timeout(20_000);

  it('gives each step the files changed while it was in progress, with line counts', async () => {
    const w = world();
    await twoSteps(w);
    assert.deepEqual(w.files(0), ['a.txt']);
    assert.deepEqual(w.files(1).sort(), ['b.txt', 'new.txt']);
    const a = w.work.stepChanges(A, S, w.step(0))[0]!.first.checkpoint!;
    assert.deepEqual([a.status, a.added, a.removed], ['modified', 2, 1]);
    assert.ok(w.step(0).before?.[0]?.id, 'step 0 remembers the checkpoint it began from');
    assert.deepEqual(w.problems, []);
    w.cps.dispose();
  });

  it('keeps the step an explicit link names for a path the wire reported', async () => {
    const w = world();
    w.write('a.txt', 'x\n');
    await w.cps.turnStarting(A, S);
    w.apply(plan('in_progress', 'pending'));
    await w.cps.settled(A, S);
    w.write('a.txt', 'y\n');
    w.apply({
      sessionId: S,
      kind: 'tool_call',
      toolCallId: 'c1',
      fields: {
        title: 'edit',
        status: 'completed',
        content: [{ type: 'diff', changes: [{ operation: 'modify', path: path.join(w.folder, 'a.txt') }] }],
        _meta: { [PLAN_ENTRY_META_KEY]: { planId: 'p', index: 1 } },
      },
    });
    w.apply(plan('completed', 'pending'));
    w.cps.turnEnded(A, S);
    await w.cps.settled(A, S);
    assert.deepEqual(w.files(0), [], 'the interval went to step 0, but the linked diff names step 1');
    assert.deepEqual(w.files(1), ['a.txt']);
    w.cps.dispose();
  });

  it('attributes nothing of what changed between turns', async () => {
    const w = world();
    await twoSteps(w);
    w.write('a.txt', 'edited by the user between turns\n');
    await w.cps.turnStarting(A, S);
    w.cps.turnEnded(A, S);
    await w.cps.settled(A, S);
    assert.deepEqual(w.files(0), ['a.txt']);
    assert.equal(w.work.stepChanges(A, S, w.step(0)).length, 1);
    assert.equal(w.work.unplanned(A, S)?.files.length ?? 0, 0);
    w.cps.dispose();
  });

  it('reverts a step where the file is as the step left it, merges where it changed elsewhere, refuses an overlap', async () => {
    const w = world();
    await twoSteps(w);
    const read = async (folder: string, id: string, file: string) => {
      const b = await w.cps.read(folder, id, path.relative(folder, file));
      return b === null || b === undefined ? b : b.toString('utf8');
    };
    const input = (i: number) => ({
      agentId: A,
      sessionId: S,
      changes: w.work.stepChanges(A, S, w.step(i)),
      roots: [w.folder],
      currentText: async (f: string) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : null),
      checkpointText: read,
      merge: (b: string, c: string, x: string) => w.cps.merge(b, c, x),
    });
    let p = await planRevert(input(0));
    assert.deepEqual(
      p.todo.map((t) => [path.basename(t.path), t.before, !!t.merged]),
      [['a.txt', 'a1\na2\na3\n', false]],
    );
    // a.txt changed after the step, elsewhere: the step's change comes out, the later line stays.
    w.write('a.txt', 'a0\na1\nA2\na3\na4\n');
    p = await planRevert(input(0));
    assert.deepEqual(
      p.todo.map((t) => [t.before, !!t.merged]),
      [['a0\na1\na2\na3\n', true]],
    );
    // …and where the step changed it: the 3-way case says why instead.
    w.write('a.txt', 'a1\nUSER\na3\na4\n');
    p = await planRevert(input(0));
    assert.equal(p.todo.length, 0);
    assert.match(p.skipped[0]!.why, /where the step changed it too \(1 place\)/);
    // Step 1 created new.txt: reverting deletes it.
    p = await planRevert(input(1));
    assert.deepEqual(p.todo.map((t) => [path.basename(t.path), t.deletes]).sort(), [
      ['b.txt', false],
      ['new.txt', true],
    ]);
    w.cps.dispose();
  });

  it('restores the workspace to before a step, and the undo point brings the present back', async () => {
    const w = world();
    await twoSteps(w);
    const targets = w.step(0).before!;
    const restore = async (t: readonly { folder: string; id: string }[]) => {
      const p = await planRestore({ agentId: A, sessionId: S, targets: t, checkpoints: w.cps, isDirty: () => false });
      for (const i of p.todo) {
        if (i.bytes === null) fs.rmSync(i.path);
        else fs.writeFileSync(i.path, i.bytes);
      }
      return p;
    };
    const p = await restore(targets);
    assert.deepEqual(p.todo.map((t) => path.basename(t.path)).sort(), ['a.txt', 'b.txt', 'new.txt']);
    assert.equal(fs.readFileSync(path.join(w.folder, 'a.txt'), 'utf8'), 'a1\na2\na3\n');
    assert.equal(fs.readFileSync(path.join(w.folder, 'b.txt'), 'utf8'), 'b1\n');
    assert.equal(fs.existsSync(path.join(w.folder, 'new.txt')), false);
    await restore(p.undo);
    assert.equal(fs.readFileSync(path.join(w.folder, 'a.txt'), 'utf8'), 'a1\nA2\na3\na4\n');
    assert.equal(fs.readFileSync(path.join(w.folder, 'new.txt'), 'utf8'), 'new\n');
    const refused = await planRestore({ agentId: 'import:agent:x', sessionId: S, targets, checkpoints: w.cps, isDirty: () => false });
    assert.match(refused.refused ?? '', /imported session/);
    w.cps.dispose();
  });

  it('stores intervals as history records that replay into the same attribution', async () => {
    const w = world();
    await twoSteps(w);
    assert.ok(w.records.length >= 3);
    const fresh = new WorkStore();
    let t = 0;
    // The plan events as the history replays them, each interval at its place.
    fresh.apply(A, plan('in_progress', 'pending'), ++t);
    fresh.recordInterval(A, S, intervalOf(w.records[0]!), ++t);
    fresh.apply(A, plan('completed', 'in_progress'), ++t);
    for (const r of w.records.slice(1)) fresh.recordInterval(A, S, intervalOf(r), ++t);
    const names = (i: number) => fresh.stepChanges(A, S, fresh.stepAt(A, S, 'p', i)!).map((c) => path.basename(c.path));
    assert.deepEqual(names(0), ['a.txt']);
    assert.deepEqual(names(1).sort(), ['b.txt', 'new.txt']);
    // A crafted record cannot name a file outside its folder.
    const crafted = intervalOf({ ...recordOf(intervalOf(w.records[0]!)), files: [{ p: '../../etc/passwd', s: 'M', a: 1, r: 1 }] });
    assert.deepEqual(crafted.files, []);
    // …nor make us open a shadow repository of a folder outside the workspace.
    assert.equal(await w.cps.read('/etc', w.records[0]!.from, 'passwd'), undefined);
    w.cps.dispose();
  });

  // Mutations: sayOnce handing up 'unexpected' for every error (the reason lost on the way), or saying it on every failure.
  it('hands a failure up as its reason (a code and its data), once per distinct reason', async () => {
    const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-ckpt-store-'));
    const folders = [1, 2].map(() => fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-ckpt-ws-'))));
    const problems: CheckpointReason[] = [];
    const cps = new Checkpoints({
      work: new WorkStore(),
      folders: () => folders,
      isWorkspaceFolder: () => true,
      open: (f) => ShadowRepo.open({ gitDir: path.join(storage, `${path.basename(f)}.git`), workTree: f, git: '/nonexistent/git' }),
      record: () => undefined,
      merge: () => Promise.reject(new Error('no merge here')),
      problem: (r) => problems.push(r),
      log: () => undefined,
      enabled: () => true,
    });
    await cps.turnStarting(A, S);
    assert.deepEqual(problems, [{ code: 'git-missing', data: { git: '/nonexistent/git', errno: 'ENOENT' } }]);
    cps.dispose();
    for (const d of [storage, ...folders]) fs.rmSync(d, { recursive: true, force: true });
  });

  // Mutations: the skip not handed up (only logged), or handed up at every checkpoint.
  (process.platform === 'win32' ? it.skip : it)('a folder replaced by a symbolic link: what is skipped and why is said once, in words', async () => {
    const w = world();
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-ckpt-outside-'));
    fs.mkdirSync(path.join(w.folder, 'src', 'deep'), { recursive: true });
    w.write('src/a.ts', 'a\n');
    w.write('src/deep/b.ts', 'b\n');
    w.write('keep.txt', 'k\n');
    await w.cps.turnStarting(A, S);
    // The folder becomes a link, a folder again, and a link again: its files are skipped twice, said once.
    for (const [i, link] of [true, true, false, true].entries()) {
      fs.rmSync(path.join(w.folder, 'src'), { recursive: true, force: true });
      if (link) fs.symlinkSync(outside, path.join(w.folder, 'src'));
      else {
        fs.mkdirSync(path.join(w.folder, 'src', 'deep'), { recursive: true });
        w.write('src/a.ts', 'a\n');
        w.write('src/deep/b.ts', 'b\n');
      }
      w.write('keep.txt', `k${i}\n`);
      w.apply(plan(i % 2 ? 'completed' : 'in_progress'));
      await w.cps.settled(A, S);
    }
    w.cps.turnEnded(A, S);
    await w.cps.settled(A, S);
    assert.deepEqual(w.problems, [{ code: 'beyond-link', data: { folder: w.folder, link: 'src', files: 2 } }]);
    assert.equal(
      checkpointWords(w.problems[0]!, english),
      `Checkpoints skip 2 files in ${w.folder}: the folder src is a symbolic link now, and checkpoints keep the link itself, never what it leads to.`,
    );
    w.cps.dispose();
    for (const d of [w.storage, w.folder, outside]) fs.rmSync(d, { recursive: true, force: true });
  });
});
