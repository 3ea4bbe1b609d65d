// What the Team service's tests share: a real temporary repository (a main tree with one commit),
// a snapshot of a tree's bytes, the workspace state as a Map (the memento port), and the UI port as
// a scripted answerer: it records every question with its arguments and gives the answers the test
// wrote down, and lets a test wait for what the service tells.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Team, type TeamDeps } from '../../../src/app/team/team';
import type { ApplyConflict, ApplyMode, Comparison, RemoveLoss, SessionChoice, TeamNews, TeamUi, WorktreeReason } from '../../../src/app/team/teamPorts';
import { WorktreeSessions, type RecordsMemento, type WorktreeHost, type WorktreeRecord } from '../../../src/app/team/worktreeSessions';
import type { SessionKey } from '../../../src/state/sessionStore';
import { SessionStore } from '../../../src/state/sessionStore';

export function sh(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' });
}

/** A repository `repo` in a new temporary folder: main branch, an identity, shared.txt committed. */
export function makeRepo(): { dir: string; repo: string } {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-team-')));
  const repo = path.join(dir, 'repo');
  fs.mkdirSync(repo);
  sh(repo, 'init', '-q', '-b', 'main');
  sh(repo, 'config', 'user.email', 't@example.com');
  sh(repo, 'config', 'user.name', 'T');
  fs.writeFileSync(path.join(repo, 'shared.txt'), 'base\nsecond\n');
  sh(repo, 'add', '-A');
  sh(repo, 'commit', '-q', '-m', 'base');
  return { dir, repo };
}

/** Every file of a tree (its .git left out) with its bytes, git's status and HEAD: equal means byte for byte the same. */
export function snapshot(tree: string): { files: Record<string, string>; status: string; head: string } {
  const files: Record<string, string> = {};
  const walk = (rel: string): void => {
    for (const e of fs.readdirSync(path.join(tree, rel), { withFileTypes: true })) {
      const r = path.join(rel, e.name);
      if (r === '.git') continue;
      if (e.isDirectory()) walk(r);
      else files[r] = fs.readFileSync(path.join(tree, r)).toString('base64');
    }
  };
  walk('');
  return { files, status: sh(tree, 'status', '--porcelain', '--untracked-files=all'), head: sh(tree, 'rev-parse', 'HEAD') };
}

export function mapMemento(): RecordsMemento & { readonly map: Map<string, unknown> } {
  const map = new Map<string, unknown>();
  return {
    map,
    keys: () => [...map.keys()],
    get: <T>(k: string) => map.get(k) as T | undefined,
    update: async (k: string, v: unknown) => void map.set(k, JSON.parse(JSON.stringify(v)) as unknown),
  };
}

export interface Answers {
  worktree?: (list: readonly WorktreeRecord[]) => WorktreeRecord | undefined;
  mode?: ApplyMode;
  confirmApply?: boolean;
  /** Settles when the test decides (true: Abort). */
  abort?: Promise<boolean>;
  remove?: 'keep-branch' | 'delete-branch';
  session?: (list: readonly SessionChoice[]) => SessionChoice | undefined;
}

type Asked = { readonly q: keyof TeamUi; readonly args: readonly unknown[] };

export class ScriptedUi implements TeamUi {
  readonly asked: Asked[] = [];
  readonly told: TeamNews[] = [];
  readonly problems: WorktreeReason[] = [];
  private waiters: (() => void)[] = [];

  constructor(public answers: Answers = {}) {}

  questions(): (keyof TeamUi)[] {
    return this.asked.map((a) => a.q);
  }
  args<T extends unknown[]>(q: keyof TeamUi): T {
    return this.asked.find((a) => a.q === q)?.args as T;
  }
  /** Resolves once the service has told something (or reported a problem) more than `count` times in all. */
  async heard(count: number): Promise<void> {
    while (this.told.length + this.problems.length <= count) await new Promise<void>((r) => this.waiters.push(r));
  }

  private ask(q: keyof TeamUi, ...args: unknown[]): void {
    this.asked.push({ q, args });
  }
  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  async pickWorktree(list: readonly WorktreeRecord[], purpose: 'apply' | 'remove'): Promise<WorktreeRecord | undefined> {
    this.ask('pickWorktree', list, purpose);
    return this.answers.worktree?.(list);
  }
  async pickMode(r: WorktreeRecord): Promise<ApplyMode | undefined> {
    this.ask('pickMode', r);
    return this.answers.mode;
  }
  async confirmApply(r: WorktreeRecord, mode: ApplyMode, files: readonly string[]): Promise<boolean> {
    this.ask('confirmApply', r, mode, [...files]);
    return this.answers.confirmApply ?? false;
  }
  async showConflicts(c: ApplyConflict): Promise<{ abort: Promise<boolean> }> {
    this.ask('showConflicts', c);
    return { abort: this.answers.abort ?? Promise.resolve(false) };
  }
  async closeConflicts(c: ApplyConflict): Promise<void> {
    this.ask('closeConflicts', c);
  }
  async confirmRemove(r: WorktreeRecord, loss: RemoveLoss): Promise<'keep-branch' | 'delete-branch' | undefined> {
    this.ask('confirmRemove', r, loss);
    return this.answers.remove;
  }
  async pickSession(list: readonly SessionChoice[], purpose: 'first' | 'second'): Promise<SessionChoice | undefined> {
    this.ask('pickSession', list, purpose);
    return this.answers.session?.(list);
  }
  async showComparison(c: Comparison): Promise<void> {
    this.ask('showComparison', c);
  }
  tell(news: TeamNews): void {
    this.told.push(news);
    this.wake();
  }
  problem(reason: WorktreeReason): void {
    this.problems.push(reason);
    this.wake();
  }
}

/** The Team service over a real repository, its worktree sessions' owner and store; SessionActions stand-ins record what they were asked. */
export function teamWorld(ui: ScriptedUi, host?: WorktreeHost, over: Partial<TeamDeps> = {}) {
  const store = new SessionStore();
  const memento = mapMemento();
  const sessions = new WorktreeSessions(memento, store, () => undefined, undefined, host);
  const closed: SessionKey[] = [];
  let n = 0;
  const deps: TeamDeps = {
    sessions,
    newSession: async (agentId) => ({ agentId, sessionId: `s${++n}` }),
    prompt: () => undefined,
    closeSession: async (ref) => void closed.push(ref),
    isLive: (ref) => !!store.session(ref.agentId, ref.sessionId)?.live,
    steps: () => [],
    agentName: (id) => id,
    location: () => '',
    maxParallel: () => 5,
    ...over,
  };
  return { team: new Team(deps, ui), store, sessions, memento, closed, deps };
}
