// A team of agents in git worktrees, and the one owner of its workflows: a session opened in a new
// worktree of the repository (its cwd and its only root for files and terminals), the same prompt
// run on several agents at once (one worktree and session each, at most `acp.worktrees.maxParallel`
// turns at once), Compare Sessions (what each did: plan steps, files changed against the base),
// Apply Worktree Changes (worktreeApply.ts) and Remove Worktree. The service decides and runs git
// (src/worktrees); it asks and tells through the UI port (teamPorts.ts), so it is free of `vscode`
// and runs in plain Node. Every refusal is a WorktreeError with a reason the views word.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { ContentBlock } from '../../protocol/domain';
import type { SessionKey } from '../../state/sessionStore';
import { branchNameProblem, branchNameRule, folderName, sessionBranch } from '../../worktrees/branchName';
import { WorktreeError } from '../../worktrees/git';
import { compareText, type StepIn } from '../../worktrees/planCompare';
import type { BranchNameRule } from '../../worktrees/reasons';
import { addWorktree, branches, changesSince, repositoryOf, showFile } from '../../worktrees/repo';
import type { ApplyConflict, Comparison, SessionChoice, TeamUi } from './teamPorts';
import { WorktreeApply, type ApplyOutcome, type WorktreeTarget, type RemoveOutcome } from './worktreeApply';
import type { WorktreeRecord, WorktreeSessions } from './worktreeSessions';

export type { ApplyOutcome, WorktreeTarget, RemoveOutcome };

export interface TeamDeps {
  readonly sessions: WorktreeSessions;
  newSession(agentId: string, cwd: string): Promise<SessionKey>;
  prompt(ref: SessionKey, blocks: readonly ContentBlock[]): unknown;
  closeSession(ref: SessionKey): Promise<void>;
  /** The session is open in its agent (Remove Worktree closes it first). */
  isLive(ref: SessionKey): boolean;
  /** The steps of the session's plans, in order (Compare Sessions). */
  steps(ref: SessionKey): StepIn[];
  /** The agent's name as shown (its id when unknown). */
  agentName(agentId: string): string;
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
  private readonly work: WorktreeApply;

  constructor(
    private readonly deps: TeamDeps,
    private readonly ui: TeamUi,
  ) {
    this.work = new WorktreeApply(deps, ui);
  }

  /** The rule of git's branch names that `name` breaks (the name box checks it as it is typed). */
  nameRule(name: string): BranchNameRule | undefined {
    return branchNameRule(name);
  }

  /** What a new worktree's branch may start from: HEAD, then the repository's branches (the current first). */
  async baseChoices(folder: string): Promise<string[]> {
    return ['HEAD', ...(await branches(await repositoryOf(folder)))];
  }

  /** Creates the worktree on `acp/<agent>/<name>` and opens the agent's session in it. */
  async newSessionInWorktree(o: NewWorktreeSession): Promise<{ ref: SessionKey; record: WorktreeRecord }> {
    const rule = branchNameRule(o.name);
    if (rule) throw new WorktreeError(`${branchNameProblem(o.name)} (name: "${o.name}")`, { code: 'bad-name', name: o.name, rule });
    const repo = await repositoryOf(o.folder);
    const branch = sessionBranch(o.agentId, o.name);
    if (branchNameRule(branch))
      throw new WorktreeError(`The branch name ${branch} is not valid for git: choose a simpler name.`, { code: 'bad-branch', branch });
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
    if (agentIds.length < 2 || agentIds.length > 5)
      throw new WorktreeError(`Pick between 2 and 5 agents (${agentIds.length} picked).`, { code: 'agent-count', picked: agentIds.length });
    const running = this.deps.sessions.teamSummary().running;
    if (running + agentIds.length > max)
      throw new WorktreeError(
        `At most ${max} worktree sessions may run at once (acp.worktrees.maxParallel): ${running} running, ${agentIds.length} asked. Wait for some to finish.`,
        { code: 'too-many-agents', max, running, asked: agentIds.length },
      );
    if (!prompt.trim()) throw new WorktreeError('Give the agents a prompt.', { code: 'no-prompt' });
    const stamp = Date.now().toString(36);
    const out: { ref: SessionKey; record: WorktreeRecord }[] = [];
    // One after the other: each `git worktree add` takes the repository's lock.
    for (const [i, agentId] of agentIds.entries())
      out.push(await this.newSessionInWorktree({ folder, agentId, base, name: `team-${stamp}-${i + 1}`, team: true }));
    for (const s of out) this.deps.prompt(s.ref, [{ type: 'text', text: prompt }]);
    return out;
  }

  /** Apply Worktree Changes: commit on the worktree's branch, merge or squash after a confirmation (worktreeApply.ts). */
  apply(target?: WorktreeTarget): Promise<ApplyOutcome | undefined> {
    return this.work.apply(target);
  }

  /** Puts the main tree back as it was before an apply that stopped on conflicts; false when that failed (told). */
  abort(c: ApplyConflict): Promise<boolean> {
    return this.work.abort(c);
  }

  /** Remove Worktree: what would be lost asked first, its live sessions closed, the branch deleted on request. */
  remove(target?: WorktreeTarget): Promise<RemoveOutcome | undefined> {
    return this.work.remove(target);
  }

  /**
   * Compare Sessions: two worktree sessions (the arguments, or picked), their plans side by side and
   * the files each changed against its base, shown through the port. Returns the plans' text.
   */
  async compare(x?: unknown, y?: unknown): Promise<string | undefined> {
    const all = this.deps.sessions.all().map((record) => this.choice(record));
    if (all.length < 2)
      throw new WorktreeError('Compare Sessions needs two sessions in worktrees: start them with Run Prompt on Several Agents… or New Session in Worktree….', {
        code: 'compare-needs-two',
      });
    const given = (v: unknown): SessionChoice | undefined => {
      const k = v as Partial<SessionKey> | undefined;
      return all.find((c) => c.record.agentId === k?.agentId && c.record.sessionId === k?.sessionId);
    };
    const a = given(x) ?? (await this.ui.pickSession(all, 'first'));
    if (!a) return undefined;
    const b =
      given(y) ??
      (await this.ui.pickSession(
        all.filter((c) => c !== a),
        'second',
      ));
    if (!b) return undefined;
    for (const { record: r } of [a, b])
      if (!existsSync(r.path))
        throw new WorktreeError(`The worktree ${r.path} was deleted outside VS Code: its changes cannot be compared. Remove Worktree… forgets it.`, {
          code: 'compare-folder-gone',
          path: r.path,
        });
    const changes = [];
    for (const { record } of [a, b]) changes.push({ record, files: await changesSince(record.path, record.baseCommit) });
    const files = { a: changes[0]!.files.map((f) => f.path), b: changes[1]!.files.map((f) => f.path) };
    const text = compareText(a.label, b.label, this.deps.steps(a.record), this.deps.steps(b.record), files);
    const comparison: Comparison = { a, b, text, changes };
    await this.ui.showComparison(comparison);
    return text;
  }

  /** The text of a file at a revision of the repository ('' where it does not exist): the diff's and merge editor's read-only sides. */
  baseText(repo: string, rev: string, file: string): Promise<string> {
    return showFile(repo, rev, file);
  }

  private choice(record: WorktreeRecord): SessionChoice {
    const agent = this.deps.agentName(record.agentId);
    return { record, label: `${agent} on ${record.branch}`, name: `${agent} (${record.branch.split('/').pop() ?? record.branch})` };
  }
}
