// Restore Workspace to Before This Step, Undo Restore and Revert where the agent put a symbolic link
// in a file's place, through the real parts: the checkpoint service over a real shadow repository
// (real git) of a temp folder, Restore's and Revert's plans, and the plan's writes made as the views
// make them (fs follows links as the editor's file system does), so a test sees where bytes land.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Checkpoints } from '../../../src/app/checkpoints/checkpoints';
import { planRestore, type RestorePlan } from '../../../src/app/checkpoints/restorePlan';
import { planRevert } from '../../../src/app/revertPlan';
import { ShadowRepo, threeWay } from '../../../src/checkpoints/shadowRepo';
import { WorkStore } from '../../../src/state/attribution/workStore';

const A = 'agent:x';
const S = 's1';
const posix = process.platform !== 'win32';

describe('Restore and Revert never write through a link that leads outside or nowhere (real git)', function () {
  this.timeout(20_000);
  const dirs: string[] = [];
  const temp = (name: string): string => {
    const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `acp-rlink-${name}-`)));
    dirs.push(d);
    return d;
  };
  let folder: string;
  let outside: string;
  let cps: Checkpoints;

  beforeEach(() => {
    folder = temp('ws');
    outside = temp('outside');
    const storage = temp('store');
    cps = new Checkpoints({
      work: new WorkStore(),
      folders: () => [folder],
      isWorkspaceFolder: (f) => f === folder,
      open: (f) => ShadowRepo.open({ gitDir: path.join(storage, 'shadow.git'), workTree: f }),
      record: () => undefined,
      merge: (base, current, wanted) => threeWay('git', base, current, wanted),
      problem: () => undefined,
      log: () => undefined,
      enabled: () => true,
    });
  });
  afterEach(() => {
    cps.dispose();
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  const restore = async (id: string): Promise<RestorePlan> =>
    planRestore({ agentId: A, sessionId: S, targets: [{ folder, id }], checkpoints: cps, isDirty: () => false });
  /** The plan's writes, as the view makes them. */
  const apply = async (plan: RestorePlan): Promise<void> => {
    for (const t of plan.todo) {
      if (t.bytes === null) await fs.promises.rm(t.path, { force: true });
      else await fs.promises.writeFile(t.path, t.bytes);
    }
  };

  (posix ? it : it.skip)('a file replaced by a dangling link to an outside path: Restore refuses it and the outside file is not created', async () => {
    fs.writeFileSync(path.join(folder, 'a.txt'), 'earlier bytes\n');
    fs.writeFileSync(path.join(folder, 'b.txt'), 'b1\n');
    const before = (await cps.snapshot(A, S)).get(folder)!;
    const victim = path.join(outside, 'planted.sh');
    fs.rmSync(path.join(folder, 'a.txt'));
    fs.symlinkSync(victim, path.join(folder, 'a.txt'));
    fs.writeFileSync(path.join(folder, 'b.txt'), 'b2\n');

    const plan = await restore(before);
    await apply(plan);
    assert.equal(fs.existsSync(victim), false, 'nothing was written outside');
    assert.equal(fs.readFileSync(path.join(folder, 'b.txt'), 'utf8'), 'b1\n', 'the plain file is restored');
    assert.deepEqual(
      plan.todo.map((t) => path.basename(t.path)),
      ['b.txt'],
    );
    assert.deepEqual(
      plan.skipped.map((s) => [path.basename(s.path), s.refusal?.code]),
      [['a.txt', 'link-nowhere']],
    );
    assert.match(plan.skipped[0]!.why, /leads nowhere/);
  });

  (posix ? it : it.skip)('Undo Restore refuses the same: a link made after the restore that leads outside', async () => {
    fs.writeFileSync(path.join(folder, 'a.txt'), 'one\n');
    const first = (await cps.snapshot(A, S)).get(folder)!;
    fs.writeFileSync(path.join(folder, 'a.txt'), 'two\n');
    const plan = await restore(first);
    await apply(plan);
    const undo = plan.undo[0]!;
    fs.rmSync(path.join(folder, 'a.txt'));
    fs.symlinkSync(path.join(outside, 'x'), path.join(folder, 'a.txt'));
    const back = await restore(undo.id);
    await apply(back);
    assert.deepEqual(fs.readdirSync(outside), [], 'nothing was written outside');
    assert.deepEqual(
      back.skipped.map((s) => s.refusal?.code),
      ['link-nowhere'],
    );
  });

  (posix ? it : it.skip)('Revert refuses a file the step wrote that is now a dangling link, with the link as the reason', async () => {
    const work = new WorkStore();
    const file = path.join(folder, 'c.txt');
    work.recordWrite(A, S, file, null, 'made\n', 1000);
    fs.symlinkSync(path.join(outside, 'c.txt'), file);
    const changes = work.stepChanges(A, S, work.unplanned(A, S)!);
    const plan = await planRevert({ agentId: A, sessionId: S, changes, roots: [folder], currentText: async () => 'made\n' });
    assert.deepEqual(plan.todo, []);
    assert.deepEqual(
      plan.skipped.map((s) => s.refusal?.code),
      ['link-nowhere'],
    );
  });
});
