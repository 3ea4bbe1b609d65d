// The sessions that work in git worktrees: which worktree (folder, branch, base) each session was
// opened in, kept in the workspace's state and on the session's history record (`keep`), so that
// it survives reloads: a session restored from the history comes back under its worktree
// (`restored`). And each worktree's state against its base (ahead/behind, changed files, folder
// gone: said once, nothing forgotten), read again on events: a turn ending, a change made through
// our commands, the worktree folder deleted or created. The one owner of both. Free of `vscode`
// (unit tested in plain Node): the workspace state, the folder events and the "folder gone" warning
// come in through ports (src/ui/team/worktreeWatch.ts in the product).
import type { StoredWorktree } from '../history/storedSessions';
import { Disposable, type IDisposable } from '../../common/lifecycle';
import { Emitter } from '../../state/emitter';
import type { SessionStore } from '../../state/sessionStore';
import { lazyModule } from '../../common/lazy';
import type { WorktreeState } from '../../worktrees/repo';
import type * as Repo from '../../worktrees/repo';

// The git plumbing is loaded the first time a worktree's state is read (a session in a worktree exists).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously (src/common/lazy.ts)
const repo = lazyModule('worktree-git.js', () => require('../../worktrees/repo') as typeof Repo);

/** Where the records are kept between reloads (the workspace state: a vscode.Memento in the product). */
export interface RecordsMemento {
  keys(): readonly string[];
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** What the owner needs from its host besides the records: the folder events and the one warning. */
export interface WorktreeHost {
  /** Calls `changed` when the folder itself is deleted or created, until the returned watch is disposed. */
  watch(folder: string, changed: () => void): IDisposable;
  /** The worktree folder was deleted outside VS Code (said once per deletion). */
  gone(r: WorktreeRecord): void;
}

/** No folder events, no warning (a second owner made to read the history, as the integration tests do). */
const QUIET: WorktreeHost = { watch: () => ({ dispose: () => undefined }), gone: () => undefined };

export interface WorktreeRecord {
  readonly repo: string;
  readonly path: string;
  readonly branch: string;
  readonly baseRef: string;
  readonly baseCommit: string;
  readonly agentId: string;
  readonly sessionId: string;
  /** Opened by Run Prompt on Several Agents (counted in the team's status). */
  readonly team: boolean;
}

const KEY = 'acp.worktreeSessions';
const MAX_RECORDS = 500;

export class WorktreeSessions extends Disposable {
  private readonly _onDidChange = this._register(new Emitter<void>());
  readonly onDidChange = this._onDidChange.event;
  private records: WorktreeRecord[];
  private readonly states = new Map<string, WorktreeState>();
  private readonly watchers = new Map<string, IDisposable>();
  /** Refreshes running, by folder, and the folders asked for again meanwhile. */
  private readonly refreshing = new Map<string, Promise<void>>();
  private readonly stale = new Set<string>();

  constructor(
    private readonly memento: RecordsMemento,
    private readonly store: SessionStore,
    private readonly log: (line: string) => void,
    /** Keeps a session's worktree on its history record (null: it has none any more). */
    private readonly keep: (r: WorktreeRecord, worktree: StoredWorktree | null) => void = () => undefined,
    private readonly host: WorktreeHost = QUIET,
  ) {
    super();
    const saved = memento.get<unknown>(KEY);
    this.records = Array.isArray(saved) ? (saved as WorktreeRecord[]).filter((r) => typeof r?.path === 'string' && typeof r.sessionId === 'string') : [];
    for (const r of this.records) this.watch(r.path);
    // A turn that ends may have changed files: read its worktree again.
    const turns = new Map<string, string>();
    this._register(
      store.onDidChange((c) => {
        if (c.scope !== 'session') return;
        const r = this.of(c.agentId, c.sessionId);
        const now = store.session(c.agentId, c.sessionId)?.turnState ?? 'gone';
        const key = `${c.agentId}\0${c.sessionId}`;
        const before = turns.get(key);
        turns.set(key, now);
        if (r && before !== undefined && before !== now) this._onDidChange.fire();
        if (r && before !== undefined && before !== 'idle' && now === 'idle') void this.refresh(r.path);
      }),
    );
    this._register({ dispose: () => this.watchers.forEach((w) => w.dispose()) });
    void this.refreshAll();
  }

  all(): readonly WorktreeRecord[] {
    return this.records;
  }
  of(agentId: string, sessionId: string): WorktreeRecord | undefined {
    return this.records.find((r) => r.agentId === agentId && r.sessionId === sessionId);
  }
  byPath(folder: string): WorktreeRecord[] {
    return this.records.filter((r) => r.path === folder);
  }
  /** The worktrees (one record each, the first session's). */
  worktrees(): WorktreeRecord[] {
    const seen = new Set<string>();
    return this.records.filter((r) => !seen.has(r.path) && !!seen.add(r.path));
  }
  /** The folders a worktree session may read, write and run commands in: its worktree alone. */
  rootsFor(agentId: string, sessionId: string): string[] | undefined {
    const r = this.of(agentId, sessionId);
    return r ? [r.path] : undefined;
  }
  /** The team's sessions (Run Prompt on Several Agents): turns running, turns done (idle with a stop reason). */
  teamSummary(): { running: number; done: number; total: number } {
    let running = 0;
    let done = 0;
    let total = 0;
    for (const r of this.records) {
      const s = r.team ? this.store.session(r.agentId, r.sessionId) : undefined;
      if (!s) continue;
      total++;
      if (s.turnState !== 'idle' || s.queued.length > 0) running++;
      else if (s.stopReason) done++;
    }
    return { running, done, total };
  }

  state(folder: string): WorktreeState | undefined {
    return this.states.get(folder);
  }

  async add(r: WorktreeRecord): Promise<void> {
    this.records = [...this.records.filter((x) => !(x.agentId === r.agentId && x.sessionId === r.sessionId)), r].slice(-MAX_RECORDS);
    this.watch(r.path);
    this.keep(r, stored(r));
    await this.save();
    await this.refresh(r.path);
  }

  /** Sessions restored from the history that work in a worktree: known again (and watched) if they were not. */
  restored(list: readonly { agentId: string; sessionId: string; worktree: StoredWorktree }[]): void {
    const fresh = list
      .filter((s) => !this.of(s.agentId, s.sessionId))
      .map(({ agentId, sessionId, worktree: w }) => ({
        repo: w.repo,
        path: w.path,
        branch: w.branch,
        baseRef: w.baseRef,
        baseCommit: w.baseCommit,
        agentId,
        sessionId,
        team: !!w.team,
      }));
    if (!fresh.length) return;
    this.records = [...this.records, ...fresh].slice(-MAX_RECORDS);
    for (const r of fresh) this.watch(r.path);
    this.log(`[worktrees] ${fresh.length} session(s) restored from the history in their worktrees`);
    this._onDidChange.fire();
    void this.save();
    void Promise.all([...new Set(fresh.map((r) => r.path))].map((p) => this.refresh(p)));
  }

  /** Forgets a worktree and its sessions' records (after Remove Worktree). */
  async forget(folder: string): Promise<void> {
    for (const r of this.byPath(folder)) this.keep(r, null);
    this.records = this.records.filter((r) => r.path !== folder);
    this.states.delete(folder);
    this.watchers.get(folder)?.dispose();
    this.watchers.delete(folder);
    await this.save();
    this._onDidChange.fire();
  }

  /**
   * Reads the worktree's state again. A refresh asked for while one runs is one more read after it
   * (a burst of file events is two reads, not one per event); the promise ends after that read.
   */
  refresh(folder: string): Promise<void> {
    const running = this.refreshing.get(folder);
    if (running) {
      this.stale.add(folder);
      return running;
    }
    const run = (async () => {
      do {
        this.stale.delete(folder);
        await this.readState(folder);
      } while (this.stale.has(folder));
    })().finally(() => this.refreshing.delete(folder));
    this.refreshing.set(folder, run);
    return run;
  }

  private async readState(folder: string): Promise<void> {
    const r = this.records.find((x) => x.path === folder);
    if (!r) return;
    try {
      const before = this.states.get(folder);
      const now = await repo().worktreeState(folder, r.baseRef, r.baseCommit);
      this.states.set(folder, now);
      if (!now.exists && before?.exists !== false && this.records.some((x) => x.path === folder)) this.host.gone(r);
    } catch (e) {
      this.log(`[worktrees] reading ${folder}: ${e instanceof Error ? e.message : String(e)}`);
    }
    this._onDidChange.fire();
  }

  async refreshAll(): Promise<void> {
    await Promise.all(this.worktrees().map((r) => this.refresh(r.path)));
  }

  /** The worktree folder deleted (or created again) reads its state again. */
  private watch(folder: string): void {
    if (this.watchers.has(folder)) return;
    this.watchers.set(
      folder,
      this.host.watch(folder, () => void this.refresh(folder)),
    );
  }

  private async save(): Promise<void> {
    await this.memento.update(KEY, this.records);
  }
}

function stored(r: WorktreeRecord): StoredWorktree {
  return { repo: r.repo, path: r.path, branch: r.branch, baseRef: r.baseRef, baseCommit: r.baseCommit, ...(r.team ? { team: true } : {}) };
}
