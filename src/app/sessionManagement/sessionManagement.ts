// Fork, archive / unarchive, rename and the status of sessions (ACP v2, unstable): each offered only
// where the running agent advertised it (`session.fork`, `archive`, `title`, `status`), so a v1
// agent and one without them see none of it. Decides and acts; the views ask and word the typed
// reasons (src/ui/sessionManagement/manageWords.ts). Free of `vscode`: agents, the store and the
// archive marks come in as ports.
import type { AcpConnection, Disposable } from '../../protocol/api';
import type { SessionEvent } from '../../protocol/domain';
import type { SessionKey, SessionStore } from '../../state/sessionStore';
import type { ArchiveMarks } from './archiveMarks';

export type ManageCapability = 'fork' | 'archive' | 'title' | 'status';

/** What this service uses of an agent (the AgentSupervisor). */
export interface ManagedAgent {
  readonly def: { readonly name: string };
  readonly connection: Pick<AcpConnection, 'capabilities' | 'setSessionArchived' | 'setSessionTitle'> | undefined;
  newSession(cwd: string, extras: { additionalDirectories?: string[]; forkOf?: string }): Promise<string>;
}

export interface ManagedAgents {
  get(agentId: string): ManagedAgent | undefined;
}

/** Why an action did not happen, for the view to word. */
export type ManageReason =
  | { code: 'not_running'; agent: string }
  | { code: 'not_offered'; agent: string; what: ManageCapability }
  | { code: 'no_session' }
  | { code: 'title_empty' }
  | { code: 'title_too_long'; max: number }
  | { code: 'agent_refused'; agent: string; what: ManageCapability; message: string };

export class ManageError extends Error {
  constructor(readonly reason: ManageReason) {
    super(`session management: ${reason.code}${'message' in reason ? `: ${reason.message}` : ''}`);
  }
}

export const MAX_TITLE_LENGTH = 200;

export interface SessionManagementDeps {
  agents: ManagedAgents;
  store: SessionStore;
  marks: ArchiveMarks;
  /** Feeds an event as if the agent sent it (an agent-stored title: stores, then the history). */
  apply(agentId: string, e: SessionEvent): void;
  /** Closes a live session before it is archived (SessionActions.closeSession). */
  close(ref: SessionKey): Promise<void>;
}

/** A title as the user typed it, checked: undefined when fine, else why not. */
export function titleProblem(title: string): ManageReason | undefined {
  const t = title.trim();
  if (!t) return { code: 'title_empty' };
  if (t.length > MAX_TITLE_LENGTH) return { code: 'title_too_long', max: MAX_TITLE_LENGTH };
  return undefined;
}

export class SessionManagement {
  constructor(private readonly d: SessionManagementDeps) {}

  /** What the agent offers now (nothing while it is not running). */
  offers(agentId: string): Record<ManageCapability, boolean> {
    const caps = this.d.agents.get(agentId)?.connection?.capabilities;
    return { fork: !!caps?.fork, archive: !!caps?.archive, title: !!caps?.title, status: !!caps?.status };
  }

  isArchived(agentId: string, sessionId: string): boolean {
    return this.d.marks.isArchived(agentId, sessionId);
  }

  /** What a session row's menu offers (its contextValue facets): fork, archive or unarchive, rename. */
  facets(agentId: string, sessionId: string): string[] {
    const o = this.offers(agentId);
    const out: string[] = [];
    if (o.fork && this.d.store.session(agentId, sessionId)?.parentSessionId === undefined) out.push('fork');
    if (o.archive) out.push(this.isArchived(agentId, sessionId) ? 'unarchive' : 'archive');
    if (o.title) out.push('rename');
    return out;
  }

  /** An agent's rows changed: a session archived or unarchived, or the agent started or stopped (what it offers). */
  onDidChangeRows(listener: (agentId: string) => void): Disposable {
    const a = this.d.marks.onDidChange((c) => listener(c.agentId));
    const b = this.d.store.onDidChange((c) => {
      if (c.scope === 'agent') listener(c.agentId);
    });
    return { dispose: () => (a.dispose(), b.dispose()) };
  }

  /**
   * A new session with the same history, opened and made active. The fork is attached only once the
   * agent answered: a failed fork leaves nothing behind in the tree.
   */
  async fork(ref: SessionKey): Promise<SessionKey> {
    const agent = this.ready(ref.agentId, 'fork');
    const s = this.d.store.session(ref.agentId, ref.sessionId);
    if (!s?.cwd) throw new ManageError({ code: 'no_session' });
    let sessionId: string;
    try {
      sessionId = await agent.newSession(s.cwd, { forkOf: ref.sessionId });
    } catch (err) {
      throw this.refused(agent, 'fork', err);
    }
    const key = { agentId: ref.agentId, sessionId };
    this.d.store.setActiveSession(key);
    return key;
  }

  /** Archives (closing it first when it is open here) or unarchives the session on the agent, then here. */
  async setArchived(ref: SessionKey, archived: boolean): Promise<void> {
    const agent = this.ready(ref.agentId, 'archive');
    if (archived && this.d.store.session(ref.agentId, ref.sessionId)?.live) await this.d.close(ref);
    try {
      await agent.connection!.setSessionArchived(ref.sessionId, archived);
    } catch (err) {
      throw this.refused(agent, 'archive', err);
    }
    await this.d.marks.set(ref.agentId, ref.sessionId, archived);
  }

  /** Sets the title on the agent and shows the one it stored (it may normalize it). */
  async rename(ref: SessionKey, title: string): Promise<string> {
    const problem = titleProblem(title);
    if (problem) throw new ManageError(problem);
    const agent = this.ready(ref.agentId, 'title');
    let stored: string;
    try {
      stored = await agent.connection!.setSessionTitle(ref.sessionId, title.trim());
    } catch (err) {
      throw this.refused(agent, 'title', err);
    }
    this.d.apply(ref.agentId, { sessionId: ref.sessionId, kind: 'session_info', title: stored });
    return stored;
  }

  private ready(agentId: string, what: ManageCapability): ManagedAgent {
    const agent = this.d.agents.get(agentId);
    const name = agent?.def.name ?? agentId;
    if (!agent?.connection) throw new ManageError({ code: 'not_running', agent: name });
    if (!this.offers(agentId)[what]) throw new ManageError({ code: 'not_offered', agent: name, what });
    return agent;
  }

  private refused(agent: ManagedAgent, what: ManageCapability, err: unknown): ManageError {
    return new ManageError({ code: 'agent_refused', agent: agent.def.name, what, message: err instanceof Error ? err.message : String(err) });
  }
}
