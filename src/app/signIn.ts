// Sign-in to an agent, from the `ACP: Sign In` command or after the agent answered `auth_required`
// (-32000). The user picks one of the agent's methods: an `agent` method goes through
// `authenticate` (v1) / `auth/login` (v2); a `terminal` method runs the agent's own configured
// command (machine-scoped settings, never a command the agent names) with the method's extra
// arguments and variables in a VS Code terminal, where the user signs in; a zero exit status means
// success, and the agent is restarted so it starts signed in. Never in an untrusted workspace.
// Variable values are never logged (only their names).
import * as path from 'path';
import * as vscode from 'vscode';
import type { AgentManager } from '../agents/agentManager';
import type { AgentSupervisor } from '../agents/supervisor';
import type { Logs } from '../agents/logs';
import { checkArgs, checkEnv } from '../agents/terminalEnv';
import type { AuthMethod } from '../protocol/domain';
import { Disposable, DisposableStore } from '../common/lifecycle';

export class SignIn extends Disposable {
  /** Terminal sign-ins under way, by agent (a second request shows the same terminal). */
  private readonly running = new Map<string, Promise<boolean>>();
  /** Each terminal sign-in's terminal and listener, disposed when it ends or with this owner. */
  private readonly scopes = new Set<DisposableStore>();

  constructor(
    private readonly agents: AgentManager,
    private readonly logs: Logs,
    private readonly restart: (agentId: string) => Promise<void>,
  ) {
    super();
  }

  override dispose(): void {
    for (const s of this.scopes) s.dispose();
    this.scopes.clear();
    super.dispose();
  }

  /**
   * The agent refused `what` with auth_required: says so and offers sign-in. Resolves true once
   * signed in (the caller then retries what failed), false when the user declined or it failed
   * (each failure is shown with what to do).
   */
  async afterAuthRequired(agentId: string, what: string, detail: string): Promise<boolean> {
    const name = this.agents.get(agentId)?.def.name ?? agentId;
    this.logs.main.warn(`${name} asks for sign-in before it can ${what}: ${detail}`);
    const pick = await vscode.window.showWarningMessage(`${name} asks you to sign in before it can ${what}.`, 'Sign In', 'Show Log');
    if (pick === 'Show Log') this.logs.main.show(true);
    if (pick !== 'Sign In') return false;
    return this.signIn(agentId);
  }

  /** Lets the user pick a sign-in method of a running agent and signs in with it. */
  async signIn(agentId: string): Promise<boolean> {
    const sup = this.agents.get(agentId);
    const conn = sup?.connection;
    if (!sup || !conn) throw new Error(`${sup?.def.name ?? agentId} is not running. Start it, then sign in.`);
    const name = sup.def.name;
    if (conn.authMethods.length === 0) {
      void vscode.window.showErrorMessage(`${name} offers no sign-in method. Sign in with the agent's own tools outside VS Code, then restart the agent.`);
      return false;
    }
    const pick = await vscode.window.showQuickPick(
      conn.authMethods.map((m) => ({
        label: m.name,
        description: methodKind(m),
        detail: m.description ?? undefined,
        m,
      })),
      { placeHolder: `Sign in to ${name}: pick a method`, ignoreFocusOut: true },
    );
    if (!pick) return false;
    const m = pick.m;
    if (m.type === 'terminal') return this.inTerminal(sup, m);
    if (m.type !== 'agent') {
      void vscode.window.showErrorMessage(
        `"${m.name}" is a sign-in method of type "${m.type}", which ACP Plans cannot use. Pick another method, or sign in outside VS Code and restart the agent.`,
      );
      return false;
    }
    try {
      await conn.authenticate(m.id);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.logs.main.error(`${name}: sign-in with "${m.name}" failed: ${message}`);
      void vscode.window.showErrorMessage(`Signing in to ${name} with "${m.name}" failed: ${message}. Try again, or pick another method.`);
      return false;
    }
    void vscode.window.showInformationMessage(`Signed in to ${name}.`);
    return true;
  }

  private inTerminal(sup: AgentSupervisor, m: AuthMethod): Promise<boolean> {
    const under = this.running.get(sup.id);
    if (under) return under;
    const run = this.runTerminal(sup, m).finally(() => this.running.delete(sup.id));
    this.running.set(sup.id, run);
    return run;
  }

  private async runTerminal(sup: AgentSupervisor, m: AuthMethod): Promise<boolean> {
    this.agents.assertTrusted();
    const def = sup.def;
    // The method's variables and arguments come from the agent: the same checks as a terminal it
    // asks for (no NODE_OPTIONS, LD_*, PATH…, bounded), so a click on "Log in" runs the configured
    // command and nothing the agent slipped in.
    let extra: Record<string, string>;
    let extraArgs: string[];
    try {
      extra = checkEnv(m.env);
      extraArgs = checkArgs(m.args);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.logs.main.warn(`${def.name}: terminal sign-in "${m.name}" refused: ${message}`);
      void vscode.window.showErrorMessage(
        `${def.name}'s sign-in method "${m.name}" was not run. ${message} Sign in with the agent's own tools outside VS Code, then restart the agent.`,
      );
      return false;
    }
    const args = [...def.args, ...extraArgs];
    this.logs.main.info(
      `${def.name}: terminal sign-in "${m.name}": ${path.basename(def.command)} with ${m.args?.length ?? 0} extra argument(s)${m.env?.length ? `, variables ${m.env.map((e) => e.name).join(', ')}` : ''}`,
    );
    const scope = new DisposableStore();
    this.scopes.add(scope);
    try {
      const term = vscode.window.createTerminal({
        name: `Sign in: ${def.name}`,
        shellPath: def.command,
        shellArgs: args,
        env: { ...def.env, ...extra },
        cwd: def.cwd ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
        isTransient: true,
      });
      scope.add(term);
      const closed = new Promise<vscode.TerminalExitStatus | undefined>((resolve) => {
        scope.add(
          vscode.window.onDidCloseTerminal((t) => {
            if (t === term) resolve(t.exitStatus);
          }),
        );
      });
      term.show();
      const status = await closed;
      if (status?.code !== 0) {
        const how = status?.code === undefined ? 'was closed before it finished' : `ended with exit code ${status.code}`;
        this.logs.main.warn(`${def.name}: terminal sign-in ${how}`);
        void vscode.window.showErrorMessage(`Signing in to ${def.name} in the terminal ${how}, so you are not signed in. Run "ACP: Sign In" to try again.`);
        return false;
      }
    } finally {
      this.scopes.delete(scope);
      scope.dispose();
    }
    this.logs.main.info(`${def.name}: terminal sign-in finished; restarting the agent`);
    await this.restart(sup.id);
    void vscode.window.showInformationMessage(`Signed in to ${def.name}; the agent restarted.`);
    return true;
  }
}

function methodKind(m: AuthMethod): string {
  return m.type === 'terminal' ? 'in a terminal' : m.type === 'agent' ? 'by the agent' : m.type;
}
