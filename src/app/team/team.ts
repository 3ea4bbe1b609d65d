// A team of agents in git worktrees: a session opened in a new worktree of the repository (its cwd
// and its only root for files and terminals), the same prompt run on several agents at once (one
// worktree and session each, at most `acp.worktrees.maxParallel` turns at once). Git through
// src/worktrees.
import * as path from 'node:path';
import type { SessionKey } from '../../state/sessionStore';
import type { ContentBlock } from '../../protocol/domain';
import { branchNameProblem, folderName, sessionBranch } from '../../worktrees/branchName';
import { WorktreeError } from '../../worktrees/git';
import { addWorktree, repositoryOf } from '../../worktrees/repo';
import type { WorktreeRecord, WorktreeSessions } from './worktreeSessions';

export interface TeamDeps {
  readonly sessions: WorktreeSessions;
  newSession(agentId: string, cwd: string): Promise<SessionKey>;
  prompt(ref: SessionKey, blocks: readonly ContentBlock[]): unknown;
  /** `acp.worktrees.location` ('' : `<repo>.worktrees` beside the repository). */
  location(): string;
  maxParallel(): number;
}

export interface NewWorktreeSession {
  /** A folder in the repository (the workspace folder). */
  readonly folder: string;
  readonly agentId: string;
  /** HEAD or a branch. */
  readonly base: string;
  readonly name: string;
  readonly team?: boolean;
}

/** Where the worktrees of `repo` go: the setting (relative to the repository's parent), or `<repo>.worktrees`. */
export function worktreesFolder(repo: string, setting: string): string {
  const parent = path.dirname(repo);
  return setting.trim() ? path.resolve(parent, setting.trim()) : path.join(parent, `${path.basename(repo)}.worktrees`);
}

export class Team {
  constructor(private readonly deps: TeamDeps) {}

  /** Creates the worktree on `acp/<agent>/<name>` and opens the agent's session in it. */
  async newSessionInWorktree(o: NewWorktreeSession): Promise<{ ref: SessionKey; record: WorktreeRecord }> {
    const problem = branchNameProblem(o.name);
    if (problem) throw new WorktreeError(`${problem} (name: "${o.name}")`);
    const repo = await repositoryOf(o.folder);
    const branch = sessionBranch(o.agentId, o.name);
    if (branchNameProblem(branch)) throw new WorktreeError(`The branch name ${branch} is not valid for git: choose a simpler name.`);
    const folder = path.join(worktreesFolder(repo, this.deps.location()), folderName(branch));
    const added = await addWorktree(repo, branch, folder, o.base);
    const ref = await this.deps.newSession(o.agentId, added.path);
    const record: WorktreeRecord = { repo, ...added, ...ref, team: o.team ?? false };
    await this.deps.sessions.add(record);
    return { ref, record };
  }

  /** One worktree and session per agent (an agent may appear several times), the prompt sent to each. */
  async runOnSeveral(folder: string, agentIds: readonly string[], prompt: string, base = 'HEAD'): Promise<{ ref: SessionKey; record: WorktreeRecord }[]> {
    const max = this.deps.maxParallel();
    if (agentIds.length < 2 || agentIds.length > 5) throw new WorktreeError(`Pick between 2 and 5 agents (${agentIds.length} picked).`);
    const running = this.deps.sessions.teamSummary().running;
    if (running + agentIds.length > max)
      throw new WorktreeError(
        `At most ${max} worktree sessions may run at once (acp.worktrees.maxParallel): ${running} running, ${agentIds.length} asked. Wait for some to finish.`,
      );
    if (!prompt.trim()) throw new WorktreeError('Give the agents a prompt.');
    const stamp = Date.now().toString(36);
    const out: { ref: SessionKey; record: WorktreeRecord }[] = [];
    // One after the other: each `git worktree add` takes the repository's lock.
    for (const [i, agentId] of agentIds.entries())
      out.push(await this.newSessionInWorktree({ folder, agentId, base, name: `team-${stamp}-${i + 1}`, team: true }));
    for (const s of out) this.deps.prompt(s.ref, [{ type: 'text', text: prompt }]);
    return out;
  }
}
