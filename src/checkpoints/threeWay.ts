// A three-way merge of texts with `git merge-file -p`, on temporary files of ours: the current
// text with the change from base to wanted applied, and how many conflicts it holds (marked in the
// text the usual way). git runs in the same clean environment as the checkpoints, in a temporary
// folder that no repository is looked for above.
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CheckpointError } from './errors';
import { cleanEnv, GitRunner, safeConfig } from './gitProcess';

/** The most text a merge may produce. */
export const MAX_MERGE_OUTPUT_BYTES = 64 * 1024 * 1024;

export async function threeWay(git: string, base: string, current: string, wanted: string): Promise<{ text: string; conflicts: number }> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'acp-merge-'));
  try {
    const empty = path.join(dir, 'empty');
    await fsp.mkdir(empty);
    const files = { current: path.join(dir, 'current'), base: path.join(dir, 'base'), wanted: path.join(dir, 'wanted') };
    await Promise.all([fsp.writeFile(files.current, current), fsp.writeFile(files.base, base), fsp.writeFile(files.wanted, wanted)]);
    const env = cleanEnv(process.env, empty, { GIT_CEILING_DIRECTORIES: path.dirname(dir) });
    const runner = new GitRunner(git, env, dir, safeConfig(empty));
    // Exit code: the number of conflicts (at most 127); negative (255…) on error.
    const r = await runner.run(['merge-file', '-p', '-L', 'current', '-L', 'base', '-L', 'wanted', '--', files.current, files.base, files.wanted], {
      maxOutputBytes: MAX_MERGE_OUTPUT_BYTES,
      okCodes: (code) => code > 0 && code < 128,
    });
    return { text: r.stdout.toString('utf8'), conflicts: r.code };
  } catch (e) {
    // A CheckpointError (GitMissingError among them) says why already.
    throw e instanceof CheckpointError ? e : new CheckpointError({ code: 'merge-failed', data: { detail: e instanceof Error ? e.message : String(e) } });
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}
