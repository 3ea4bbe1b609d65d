// Checkpoints of a session's workspace folders, whatever wrote the files (the agent itself, our fs
// service, a terminal command, the user): at turn start, whenever the steps that own work change
// (an entry entering or leaving in_progress, a plan appearing or going), and at turn end. Each one
// is a snapshot in the folder's shadow repository (src/checkpoints); the files changed between two
// snapshots inside a turn go to the steps that owned that time (WorkStore.recordInterval) and into
// the session history, so review, revert and rewind see every change of every agent.
//
// Requests are taken in order, one at a time per session; a new one merges into the last waiting
// one when it comes within MERGE_WINDOW_MS of it or MAX_WAITING are waiting (the interval before it then belongs to the owners of both), so an agent
// that flips its plan a thousand times a second queues a few checkpoints, not a thousand. Nothing here blocks
// the extension host: git runs as child processes.
import * as path from 'node:path';
import { checkpointMessage, checkpointReason, type CheckpointReason } from '../../checkpoints/errors';
import { Disposable } from '../../common/lifecycle';
import type { SessionEvent } from '../../protocol/domain';
import type { CheckpointInterval, OwnerRef, WorkStore } from '../../state/attribution/workStore';
import { sessionKey } from '../../state/sessionStore';
import type { CheckpointRecord } from '../history/records';
import { recordOf } from '../history/intervalRecords';

/** What the service needs of a folder's shadow repository (src/checkpoints/shadowRepo.ts). */
export interface CheckpointRepo {
  checkpoint(tag: string): Promise<{ readonly id: string; readonly skipped: readonly { path: string; why: string; link?: string }[] }>;
  changes(
    from: string,
    to: string,
  ): Promise<readonly { path: string; status: 'added' | 'modified' | 'deleted'; added: number; removed: number; binary: boolean }[]>;
  read(id: string, relPath: string): Promise<Buffer | undefined>;
  has(id: string): Promise<boolean>;
  dropTag(tag: string): Promise<void>;
  dispose(): void;
}

export interface CheckpointDeps {
  readonly work: Pick<WorkStore, 'ownerRefs' | 'recordInterval'>;
  /** The folders a session works in (its cwd first). */
  folders(agentId: string, sessionId: string): readonly string[];
  /** The folder's shadow repository; rejects with a CheckpointError whose reason says why (git missing, …). */
  open(folder: string): Promise<CheckpointRepo>;
  /** Stores an interval with the session's history. */
  record(agentId: string, sessionId: string, rec: CheckpointRecord, t: number): void;
  /** A 3-way merge of texts: `current` with the change base → wanted applied (git merge-file). */
  merge(base: string, current: string, wanted: string): Promise<{ text: string; conflicts: number }>;
  /** A problem a person should hear about (the view words it), once per distinct reason. */
  problem(reason: CheckpointReason): void;
  log(line: string): void;
  /** The folder is one of the workspace's (a stored record, e.g. from an imported bundle, may name any folder). */
  isWorkspaceFolder(folder: string): boolean;
  /** Checkpoints are on for this session (setting, a live agent: never a replay or an import). */
  enabled(agentId: string, sessionId: string): boolean;
  now?(): number;
}

/** Requests waiting per session before new ones merge into the last. */
const MAX_WAITING = 4;
/** A request within this time of the last waiting one merges into it (an agent that rewrites its plan in a burst). */
const MERGE_WINDOW_MS = 250;

interface Taken {
  readonly ids: ReadonlyMap<string, string>;
  /** Who owns the time after it; null outside a turn (changes then belong to no step). */
  readonly owners: readonly OwnerRef[] | null;
  readonly time: number;
}

interface Pending {
  owners: readonly OwnerRef[] | null;
  time: number;
  /** Owners of requests merged into this one: they owned part of the time before it. */
  readonly alsoBefore: OwnerRef[];
  readonly done: Promise<ReadonlyMap<string, string>>;
  resolve(ids: ReadonlyMap<string, string>): void;
}

interface SessionCheckpoints {
  readonly agentId: string;
  readonly sessionId: string;
  inTurn: boolean;
  turnAt?: number;
  ownersKey: string;
  last?: Taken;
  /** Requests not started yet, in order (at most MAX_WAITING: later ones merge into the last). */
  readonly waiting: Pending[];
  chain: Promise<void>;
}

export class Checkpoints extends Disposable {
  private readonly repos = new Map<string, Promise<CheckpointRepo | undefined>>();
  private readonly sessions = new Map<string, SessionCheckpoints>();
  private readonly said = new Set<string>();

  constructor(private readonly d: CheckpointDeps) {
    super();
  }

  /** When the session's last turn began (Review Changes of the Last Turn), undefined when none did here. */
  turnStart(agentId: string, sessionId: string): number | undefined {
    return this.sessions.get(sessionKey(agentId, sessionId))?.turnAt;
  }

  /** A turn is about to start: resolves once the turn-start checkpoint is taken (or could not be). */
  turnStarting(agentId: string, sessionId: string): Promise<void> {
    const s = this.session(agentId, sessionId);
    if (!s) return Promise.resolve();
    s.inTurn = true;
    s.turnAt = this.d.now?.() ?? Date.now();
    const owners = this.d.work.ownerRefs(agentId, sessionId);
    s.ownersKey = JSON.stringify(owners);
    return this.request(s, owners).then(() => undefined);
  }

  /** The turn ended (any stop reason): the last interval of the turn is closed. */
  turnEnded(agentId: string, sessionId: string): void {
    const s = this.sessions.get(sessionKey(agentId, sessionId));
    if (!s?.inTurn) return;
    s.inTurn = false;
    void this.request(s, null);
  }

  /** After the stores applied an event: a plan change that moves work to other steps takes a checkpoint. */
  afterEvent(agentId: string, e: SessionEvent): void {
    if (e.kind !== 'plan_update' && e.kind !== 'plan_removed') return;
    const s = this.sessions.get(sessionKey(agentId, e.sessionId));
    if (!s?.inTurn) return;
    const owners = this.d.work.ownerRefs(agentId, e.sessionId);
    const key = JSON.stringify(owners);
    if (key === s.ownersKey) return;
    s.ownersKey = key;
    void this.request(s, owners);
  }

  /** A checkpoint now that owns nothing (the undo point of a rewind): its id per folder. */
  async snapshot(agentId: string, sessionId: string): Promise<ReadonlyMap<string, string>> {
    const s = this.session(agentId, sessionId);
    if (!s) return new Map();
    return this.request(s, s.inTurn ? this.d.work.ownerRefs(agentId, sessionId) : null);
  }

  /** Resolves when the session's queued checkpoints are taken (tests, rewind). */
  async settled(agentId: string, sessionId: string): Promise<void> {
    await this.sessions.get(sessionKey(agentId, sessionId))?.chain;
  }

  /** The repository of a folder, or undefined when checkpoints cannot work there (said once). */
  repo(folder: string): Promise<CheckpointRepo | undefined> {
    if (!this.d.isWorkspaceFolder(folder)) return Promise.resolve(undefined);
    let r = this.repos.get(folder);
    if (!r) {
      r = this.d.open(folder).then(
        (repo) => {
          if (this.isDisposed) repo.dispose();
          else this._register({ dispose: () => repo.dispose() });
          return repo;
        },
        (err: unknown) => {
          this.sayOnce(err);
          return undefined;
        },
      );
      this.repos.set(folder, r);
    }
    return r;
  }

  /** A file as a checkpoint holds it: null when absent there, undefined when the checkpoint is not available (no git, pruned). */
  async read(folder: string, id: string, relPath: string): Promise<Buffer | null | undefined> {
    const repo = await this.repo(folder);
    if (!repo || !(await repo.has(id).catch(() => false))) return undefined;
    return (await repo.read(id, relPath)) ?? null;
  }

  /** The files changed between two checkpoints of a folder, undefined when either is not available. */
  async changes(folder: string, from: string, to: string): Promise<Awaited<ReturnType<CheckpointRepo['changes']>> | undefined> {
    const repo = await this.repo(folder);
    if (!repo || !(await repo.has(from).catch(() => false))) return undefined;
    return from === to ? [] : repo.changes(from, to);
  }

  merge(base: string, current: string, wanted: string): Promise<{ text: string; conflicts: number }> {
    return this.d.merge(base, current, wanted);
  }

  /** The session's history was deleted: its checkpoints go too. */
  async forget(agentId: string, sessionId: string, folders: readonly string[]): Promise<void> {
    this.sessions.delete(sessionKey(agentId, sessionId));
    for (const f of folders) {
      const repo = await this.repo(f);
      await repo?.dropTag(sessionKey(agentId, sessionId)).catch((err: unknown) => this.d.log(`checkpoints: ${String(err)}`));
    }
  }

  private session(agentId: string, sessionId: string): SessionCheckpoints | undefined {
    if (this.isDisposed || !this.d.enabled(agentId, sessionId)) return undefined;
    const key = sessionKey(agentId, sessionId);
    let s = this.sessions.get(key);
    if (!s) this.sessions.set(key, (s = { agentId, sessionId, inTurn: false, ownersKey: '', waiting: [], chain: Promise.resolve() }));
    return s;
  }

  private request(s: SessionCheckpoints, owners: readonly OwnerRef[] | null): Promise<ReadonlyMap<string, string>> {
    const time = this.d.now?.() ?? Date.now();
    const last = s.waiting.at(-1);
    const p = last && (s.waiting.length >= MAX_WAITING || time - last.time < MERGE_WINDOW_MS) ? last : undefined;
    if (p) {
      if (p.owners) p.alsoBefore.push(...p.owners);
      p.owners = owners;
      p.time = time;
      return p.done;
    }
    let resolve!: (ids: ReadonlyMap<string, string>) => void;
    const done = new Promise<ReadonlyMap<string, string>>((r) => (resolve = r));
    s.waiting.push({ owners, time, alsoBefore: [], done, resolve });
    s.chain = s.chain.then(() => this.take(s));
    return done;
  }

  /** Takes the pending checkpoint of every folder and records the interval that it closes. */
  private async take(s: SessionCheckpoints): Promise<void> {
    const p = s.waiting.shift();
    if (!p) return;
    const ids = new Map<string, string>();
    const tag = sessionKey(s.agentId, s.sessionId);
    try {
      for (const folder of this.d.folders(s.agentId, s.sessionId)) {
        const repo = await this.repo(folder);
        if (!repo || this.isDisposed) continue;
        try {
          const c = await repo.checkpoint(tag);
          ids.set(folder, c.id);
          if (c.skipped.length) this.d.log(`checkpoints: ${folder}: ${c.skipped.length} file(s) not kept (${c.skipped[0]!.path}: ${c.skipped[0]!.why}…)`);
          this.sayLinks(folder, c.skipped);
          await this.close(s, repo, folder, c.id, p);
        } catch (err) {
          this.sayOnce(err);
        }
      }
    } finally {
      s.last = { ids, owners: p.owners, time: p.time };
      p.resolve(ids);
    }
  }

  private async close(s: SessionCheckpoints, repo: CheckpointRepo, folder: string, to: string, p: Pending): Promise<void> {
    const last = s.last;
    const from = last?.ids.get(folder);
    if (!last || from === undefined) return;
    const owners = union(last.owners ?? [], p.alsoBefore);
    if (last.owners === null && !p.alsoBefore.length) return; // time outside a turn belongs to no step
    const changed = from === to ? [] : await repo.changes(from, to);
    const iv: CheckpointInterval = {
      folder,
      from,
      to,
      since: last.time,
      owners,
      files: changed.map((f) => ({ ...f, path: path.join(folder, ...f.path.split('/')) })),
    };
    const t = this.d.now?.() ?? Date.now();
    this.d.work.recordInterval(s.agentId, s.sessionId, iv, t);
    this.d.record(s.agentId, s.sessionId, recordOf(iv), t);
  }

  /** A folder that became a symbolic link: what was skipped beyond it, and why, said once per folder. */
  private sayLinks(folder: string, skipped: readonly { link?: string }[]): void {
    const files = new Map<string, number>();
    for (const s of skipped) if (s.link !== undefined) files.set(s.link, (files.get(s.link) ?? 0) + 1);
    for (const [link, n] of files) {
      const key = `link\u0000${folder}\u0000${link}`;
      if (this.said.has(key)) continue;
      this.said.add(key);
      this.d.problem({ code: 'beyond-link', data: { folder, link, files: n } });
    }
  }

  private sayOnce(err: unknown): void {
    const reason = checkpointReason(err);
    this.d.log(`checkpoints: ${checkpointMessage(reason)}`);
    const key = JSON.stringify(reason);
    if (this.said.has(key)) return;
    this.said.add(key);
    this.d.problem(reason);
  }
}

function union(a: readonly OwnerRef[], b: readonly OwnerRef[]): OwnerRef[] {
  const out = [...a];
  for (const r of b) if (!out.some((o) => o.planId === r.planId && o.key === r.key)) out.push(r);
  return out;
}
