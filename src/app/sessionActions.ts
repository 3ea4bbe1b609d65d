// The one path from a user's action (a command, a click in the conversation) to an agent: start
// and stop agents, open, resume, close and delete sessions, send (or queue) prompts, cancel turns,
// change config options, sign in and out. It keeps the SessionStore in step with the agents'
// lifecycle and drains each session's prompt queue when its turn ends; the pickers of the views get
// the agents as plain data (agentChoices). Throws person-readable errors; the caller shows them.
// It reaches agents, the workspace and the user through ports (src/app/agentPorts.ts): no `vscode`.
import { randomUUID } from 'crypto';
import type { ContentBlock } from '../protocol/domain';
import type { LifecycleEvent } from '../agents/supervisor';
import { parseMcpSettings } from '../agents/agentConfig';
import type { SessionKey, SessionStore } from '../state/sessionStore';
import type { PermissionBroker } from './permissionBroker';
import { Disposable } from '../common/lifecycle';
import { isAuthRequired } from '../protocol/transport/rpcError';
import type { SignIn } from './signIn';
import { signInDeclined, stillAsksForSignIn, type SignInAction } from './signInWords';
import { lazyModule } from '../common/lazy';
import { settledWithin } from '../common/timeout';
import type { AgentChoice, AgentHandle, Agents, ServiceLog, SessionActionsDeps, SessionActionsUi, WorkspacePort } from './agentPorts';
import { listWithStatus, type ListedSession } from './sessionManagement/listing';
import { steerTurn, type SteerResult } from './steering/steerTurn';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- sign-in, loaded the first time an agent asks for it (dist/sign-in.js)
const signInModule = lazyModule('sign-in.js', () => require('./signIn') as typeof import('./signIn'));

/** Prompts that may wait for one session's turn to end. */
export const MAX_QUEUED_PROMPTS = 50;

/** The longest a prompt waits for the turn-start checkpoint (src/app/checkpoints). */
export const BEFORE_TURN_MS = 1500;

export class SessionActions extends Disposable {
  /**
   * Per agent, the session this client opened that nothing has touched yet (no prompt, no option
   * set). "Start Agent" opens one; a "New Session" right after reuses it instead of leaving an
   * extra empty session behind.
   */
  private readonly untouched = new Map<string, string>();
  private signInInstance: SignIn | undefined;
  private readonly agents: Agents;
  private readonly store: SessionStore;
  private readonly broker: Pick<PermissionBroker, 'cancelSession'>;
  private readonly workspace: WorkspacePort;
  private readonly log: ServiceLog;
  private readonly ui: SessionActionsUi;

  constructor(private readonly deps: SessionActionsDeps) {
    super();
    ({ agents: this.agents, store: this.store, broker: this.broker, workspace: this.workspace, log: this.log, ui: this.ui } = deps);
    this._register(this.store.onDidChange((c) => (c.scope === 'session' && c.kind === 'updated' ? this.drainQueue(c) : undefined)));
  }

  /** Applies a supervisor's lifecycle event to the store. */
  applyLifecycle(agentId: string, e: LifecycleEvent): void {
    const sup = this.agents.get(agentId);
    const name = sup?.def.name ?? agentId;
    switch (e.kind) {
      case 'status': {
        // An agent appears in the Plans tree once it has been started (until then the view's
        // welcome content offers to start one).
        if (e.status === 'stopped' && !this.store.agent(agentId)) return;
        this.store.setAgent({
          id: agentId,
          name,
          status: e.status,
          ...(e.detail ? { detail: e.detail } : {}),
          ...(e.protocolVersion ? { protocolVersion: e.protocolVersion } : {}),
        });
        if (e.status !== 'running' && e.status !== 'starting') for (const s of this.store.sessions(agentId)) this.broker.cancelSession(agentId, s.sessionId);
        if (e.status === 'stopping' || e.status === 'crashed' || e.status === 'failed')
          this.dropQueues(
            agentId,
            `${name} ${e.status === 'stopping' ? 'was stopped' : e.status === 'crashed' ? 'kept crashing and was left stopped' : 'could not be started'}`,
          );
        // Child sessions (subagents) are never attached on their own: they end with the connection.
        if (e.status !== 'running')
          for (const s of this.store.sessions(agentId)) if (s.parentSessionId !== undefined && s.live) this.store.detachSession(agentId, s.sessionId);
        return;
      }
      case 'session_attached':
        return this.store.attachSession(agentId, e.sessionId, { cwd: e.cwd });
      case 'session_detached':
        if (e.endedBy) this.store.endSession(agentId, e.sessionId, e.endedBy);
        else this.store.detachSession(agentId, e.sessionId);
        if (e.ended) this.dropQueues(agentId, e.ended, e.sessionId);
        return;
      case 'session_deleted':
        return this.store.removeSession(agentId, e.sessionId);
      default:
        return e satisfies never;
    }
  }

  /** A configured agent was added, removed or redefined. */
  definitionChanged(agentId: string): void {
    const sup = this.agents.get(agentId);
    if (!sup) {
      this.store.removeAgent(agentId);
      return;
    }
    const prev = this.store.agent(agentId);
    if (prev) this.store.setAgent({ ...prev, name: sup.def.name });
  }

  /** The configured agents for a picker (all, or the running ones), status from the SessionStore. */
  agentChoices(filter: 'all' | 'running' = 'all'): AgentChoice[] {
    const choices = this.agents.all().map((a): AgentChoice => ({
      id: a.id,
      name: a.def.name,
      status: this.store.agent(a.id)?.status ?? 'stopped',
      detail: a.def.builtIn ? 'Built-in, no setup needed' : (a.def.remote?.url ?? `${a.def.command} ${a.def.args.join(' ')}`),
    }));
    return filter === 'running' ? choices.filter((c) => c.status === 'running') : choices;
  }

  /** The agent's name as the user configured it (its id when it is not configured). */
  agentName(agentId: string): string {
    return this.agents.get(agentId)?.def.name ?? this.store.agent(agentId)?.name ?? agentId;
  }

  async startAgent(agentId: string): Promise<AgentHandle> {
    return this.agents.start(agentId);
  }

  async stopAgent(agentId: string): Promise<void> {
    const sup = this.agent(agentId);
    this.cancelAll(agentId);
    await sup.stop();
  }

  async restartAgent(agentId: string): Promise<void> {
    this.workspace.assertTrusted(); // refuse before stopping anything
    const sup = this.agent(agentId);
    this.cancelAll(agentId);
    await sup.restart();
  }

  /**
   * An agent reported a crash or failure (AgentManager.onDidReport): the user sees it, with Show Log
   * and Restart; Restart goes the same way as the command.
   */
  agentReported(agentId: string, message: string, severity: 'error' | 'warning' | 'info'): void {
    void this.ui
      .agentReport(message, severity)
      .then((pick) => (pick === 'restart' ? this.restartAgent(agentId) : undefined))
      .catch((err: unknown) => {
        const text = err instanceof Error ? err.message : String(err);
        this.log.error(text);
        this.ui.showError(text);
      });
  }

  private cancelAll(agentId: string): void {
    for (const s of this.store.sessions(agentId)) this.broker.cancelSession(agentId, s.sessionId);
  }

  /**
   * The agent stops (Stop, Restart, or it gave up after crashes or a failed start), or a session
   * will not be resumed: the prompts queued there will not be sent. Said, with their text offered,
   * never dropped silently.
   * (A crash the agent recovers from keeps them: they are sent once the session is back.)
   */
  private dropQueues(agentId: string, why: string, sessionId?: string): void {
    const texts: string[] = [];
    for (const s of this.store.sessions(agentId)) {
      if (!s.queued.length || (sessionId !== undefined && s.sessionId !== sessionId)) continue;
      texts.push(...s.queued.map((q) => q.text));
      this.store.clearQueue(agentId, s.sessionId);
    }
    if (!texts.length) return;
    const n = texts.length === 1 ? 'A queued prompt was' : `${texts.length} queued prompts were`;
    this.ui.queueDropped(`${n} not sent: ${why}.`, texts);
  }

  /**
   * Opens a session in the first workspace folder (other folders and MCP servers where supported) and makes it active.
   * `worktree`: a fresh session in that folder alone (a git worktree: no other folder, never a spare session).
   */
  async newSession(agentId: string, worktree?: string): Promise<SessionKey> {
    const cwd = worktree ?? this.workspace.folders()[0]?.fsPath;
    if (!cwd) throw new Error('Open a folder first: a session works in a workspace folder.');
    const sup = await this.startAgent(agentId);
    const spare = worktree === undefined ? this.untouchedSession(agentId, sup) : undefined;
    if (spare) {
      this.store.setActiveSession(spare);
      return spare;
    }
    const others = worktree === undefined ? this.workspace.folders().slice(1) : [];
    const folders = others.filter((f) => f.local).map((f) => f.fsPath);
    const mcp = parseMcpSettings(this.workspace.mcpServersSetting() ?? []);
    for (const p of mcp.problems) this.log.warn(`[config] ${p}`);
    const sessionId = await this.withSignIn(agentId, 'open a session', () => sup.newSession(cwd, { additionalDirectories: folders, mcpServers: mcp.servers }));
    const key = { agentId, sessionId };
    if (worktree === undefined) this.untouched.set(agentId, sessionId);
    this.store.setActiveSession(key);
    return key;
  }

  /** The agent's untouched session, while it is still open, idle and empty of prompts. */
  private untouchedSession(agentId: string, sup: AgentHandle): SessionKey | undefined {
    const sessionId = this.untouched.get(agentId);
    const s = sessionId === undefined ? undefined : this.store.session(agentId, sessionId);
    if (!s || !s.live || !sup.isAttached(s.sessionId) || s.turnState !== 'idle' || s.queued.length > 0 || s.pendingPermissions.length > 0) {
      this.untouched.delete(agentId);
      return undefined;
    }
    return { agentId, sessionId: s.sessionId };
  }

  private touch(ref: SessionKey): void {
    if (this.untouched.get(ref.agentId) === ref.sessionId) this.untouched.delete(ref.agentId);
  }

  /** Opens a session the agent already has; one this client shows keeps its transcript (no replay duplicates). */
  async resume(agentId: string, sessionId: string, info: { cwd?: string; title?: string } = {}): Promise<SessionKey> {
    const sup = await this.startAgent(agentId);
    const known = this.store.session(agentId, sessionId);
    const cwd = info.cwd ?? known?.cwd ?? this.workspace.folders()[0]?.fsPath;
    if (!cwd) throw new Error('Open a folder first: a session works in a workspace folder.');
    // Shown (not live) while the agent replays it.
    if (!known) this.store.addStoredSession(agentId, sessionId, { cwd, ...(info.title ? { title: info.title } : {}) });
    await this.withSignIn(agentId, 'resume the session', () => sup.resumeExisting(sessionId, cwd, !!known));
    const key = { agentId, sessionId };
    this.store.setActiveSession(key);
    return key;
  }

  async closeSession(ref: SessionKey): Promise<void> {
    this.broker.cancelSession(ref.agentId, ref.sessionId);
    this.store.clearQueue(ref.agentId, ref.sessionId);
    await this.agents.get(ref.agentId)?.closeSession(ref.sessionId);
  }

  async deleteSession(ref: SessionKey): Promise<void> {
    this.broker.cancelSession(ref.agentId, ref.sessionId);
    await this.agent(ref.agentId).deleteSession(ref.sessionId);
    this.store.removeSession(ref.agentId, ref.sessionId);
  }

  /**
   * Sends now when the session is idle, else queues (shown, and removable, in the conversation):
   * while a turn runs, and while the agent restarts after a crash (sent once the session is back; a
   * queue survives a crash the agent recovers from, not Stop or Restart: dropQueues).
   */
  prompt(ref: SessionKey, blocks: readonly ContentBlock[]): 'sent' | 'queued' {
    const sup = this.agent(ref.agentId);
    const s = this.store.session(ref.agentId, ref.sessionId);
    if (!s) throw new Error('That session is no longer open.');
    if (s.ended)
      throw new Error('This session has ended: the agent could not resume it. Its transcript and plans are kept read-only; start a new session to continue.');
    this.touch(ref);
    if ((sup.status === 'running' && s.turnState !== 'idle') || (!s.live && sup.willResume(s.sessionId))) {
      if (s.queued.length >= MAX_QUEUED_PROMPTS)
        throw new Error(`${MAX_QUEUED_PROMPTS} prompts are already waiting for this turn to end. Remove some from the queue, or cancel the turn.`);
      this.store.enqueue(ref.agentId, ref.sessionId, blocks);
      return 'queued';
    }
    this.send(sup, ref, blocks);
    return 'sent';
  }

  /** Sends into the running turn when its agent offers steering (src/app/steering), else as `prompt` does; a steer not taken is queued, with why. */
  readonly steer = (ref: SessionKey, blocks: readonly ContentBlock[]): Promise<SteerResult> => steerTurn(this.deps, (r, b) => this.prompt(r, b), ref, blocks);

  /** Sign-in with one of the agent's methods (`ACP: Sign In`). */
  signIn(agentId: string): Promise<boolean> {
    return this.signInFlow.signIn(agentId);
  }

  /** Signs out of a running agent (`ACP: Sign Out`); false, with a notice, when it cannot. */
  async signOut(agentId: string): Promise<boolean> {
    const conn = this.agent(agentId).connection;
    if (!conn) throw new Error(`${this.agentName(agentId)} is not running. Start it, then sign out.`);
    if (!conn.capabilities.logout) {
      this.ui.notice(`${this.agentName(agentId)} does not support signing out.`);
      return false;
    }
    await conn.logout();
    return true;
  }

  /** Whether the running agent can list its sessions (`session/list`); says so when it cannot. */
  canListSessions(agentId: string): boolean {
    if (this.agents.get(agentId)?.connection?.capabilities.list) return true;
    this.ui.notice(`${this.agentName(agentId)} cannot list its sessions.`);
    return false;
  }

  /** One page of the running agent's sessions in the first workspace folder (`cursor`: the page after it). */
  async listSessions(agentId: string, cursor: string | undefined): Promise<{ sessions: ListedSession[]; nextCursor?: string | null }> {
    const conn = this.agent(agentId).connection;
    if (!conn) throw new Error(`${this.agentName(agentId)} is not running. Start it, then resume a session.`);
    if (!conn.capabilities.list)
      throw new Error(`${this.agentName(agentId)} cannot list its sessions. Resume one from the Plans view, or start a new session.`);
    const cwd = this.workspace.folders()[0]?.fsPath;
    return listWithStatus(conn, { ...(cwd ? { cwd } : {}), ...(cursor !== undefined ? { cursor } : {}) });
  }

  /**
   * Sign-in (src/app/signIn.ts): in the extension bundle dist/sign-in.js (esbuild.mjs), loaded the
   * first time an agent asks for it.
   */
  private get signInFlow(): SignIn {
    if (!this.signInInstance) {
      this.signInInstance = this._register(
        new (signInModule().SignIn)(this.agents, this.workspace, this.log, this.deps.signInUi, (id) => this.restartAgent(id), this.deps.l10n),
      );
    }
    return this.signInInstance;
  }

  /**
   * Runs `op`; when the agent answers auth_required, offers sign-in and runs it once more after a
   * sign-in. Never a dead end: declining or failing says what to do.
   */
  private async withSignIn<T>(agentId: string, what: SignInAction, op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (err) {
      if (!isAuthRequired(err)) throw err;
      const name = this.agentName(agentId);
      if (!(await this.signInFlow.afterAuthRequired(agentId, what, err.message))) {
        throw new Error(signInDeclined(name, what, this.deps.l10n));
      }
      try {
        return await op();
      } catch (again) {
        if (isAuthRequired(again)) throw new Error(stillAsksForSignIn(name, this.deps.l10n));
        throw again;
      }
    }
  }

  /** `key`: the prompt's idempotency key, the same when the prompt is sent again after a sign-in. */
  private send(sup: AgentHandle, ref: SessionKey, blocks: readonly ContentBlock[], key: string = randomUUID()): void {
    const before = this.deps.beforeTurn?.(ref);
    if (!before) this.sendNow(sup, ref, blocks, key);
    else
      void settledWithin(before, BEFORE_TURN_MS).then(() => {
        if (this.agents.get(ref.agentId) === sup && sup.isAttached(ref.sessionId)) this.sendNow(sup, ref, blocks, key);
      });
    this.store.turnStarted(ref.agentId, ref.sessionId);
  }

  private sendNow(sup: AgentHandle, ref: SessionKey, blocks: readonly ContentBlock[], key: string): void {
    sup.prompt(ref.sessionId, blocks, key).catch((err: unknown) => {
      if (!isAuthRequired(err)) return;
      void this.signInFlow.afterAuthRequired(ref.agentId, 'take prompts', err.message).then(
        (ok) => {
          if (ok && this.agents.get(ref.agentId) === sup && sup.isAttached(ref.sessionId)) this.send(sup, ref, blocks, key);
        },
        (e: unknown) => this.log.error(`sign-in failed: ${e instanceof Error ? e.message : String(e)}`),
      );
    });
  }

  /** Cancels the running turn: pending permission requests answer `cancelled`, the queue is dropped. */
  cancel(ref: SessionKey): void {
    this.broker.cancelSession(ref.agentId, ref.sessionId);
    this.store.clearQueue(ref.agentId, ref.sessionId);
    this.agents.get(ref.agentId)?.cancel(ref.sessionId);
  }

  removeQueued(ref: SessionKey, id: string): boolean {
    return this.store.removeQueued(ref.agentId, ref.sessionId, id);
  }

  async setConfigOption(ref: SessionKey, configId: string, value: string | boolean): Promise<void> {
    this.touch(ref);
    await this.agent(ref.agentId).setConfigOption(ref.sessionId, configId, value);
  }

  private agent(agentId: string): AgentHandle {
    const sup = this.agents.get(agentId);
    if (!sup)
      throw new Error(
        `This session is read-only: no agent "${agentId}" is configured (a replayed recording, an imported session, or an agent removed from acp.agents).`,
      );
    return sup;
  }

  private draining = false;

  private drainQueue(ref: SessionKey): void {
    if (this.draining) return; // the dequeue below fires a change of its own
    const s = this.store.session(ref.agentId, ref.sessionId);
    const sup = this.agents.get(ref.agentId);
    // The turn ended (the agent said so; its prompt response may still be on the way).
    if (!s || !sup || s.queued.length === 0 || s.turnState !== 'idle' || !s.live || sup.status !== 'running') return;
    this.draining = true;
    try {
      const next = this.store.dequeue(ref.agentId, ref.sessionId);
      if (next) this.send(sup, ref, next.blocks);
    } catch (err) {
      this.log.error(`queued prompt not sent: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      this.draining = false;
    }
  }
}
