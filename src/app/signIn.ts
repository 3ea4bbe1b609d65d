// Sign-in to an agent, from the `ACP: Sign In` command or after the agent answered `auth_required`
// (-32000). The user picks one of the agent's methods: an `agent` method goes through
// `authenticate` (v1) / `auth/login` (v2); a `terminal` method runs the agent's own configured
// command (machine-scoped settings, never a command the agent names) with the method's extra
// arguments and variables in a VS Code terminal, where the user signs in; a zero exit status means
// success, and the agent is restarted so it starts signed in. Never in an untrusted workspace.
// The method's variables must pass signInEnv.ts's allow-list, and the user confirms the exact
// command line, arguments and variables (secrets masked) before the terminal opens; Cancel runs
// nothing. Variable values are never logged (only their names). It asks and tells the user through SignInUi
// and reads the workspace through WorkspacePort (src/app/agentPorts.ts): no `vscode` here.
import * as path from 'path';
import type { AuthMethod } from '../protocol/domain';
import { Disposable, DisposableStore } from '../common/lifecycle';
import { english, type L10n } from '../common/l10n';
import type { AgentHandle, Agents, ServiceLog, SignInUi, TerminalSpec, WorkspacePort } from './agentPorts';
import type { SignInAction } from './signInWords';
import { checkSignInArgs, checkSignInEnv, envRecord, signInConfirmation, type SignInVar } from './signInEnv';

export class SignIn extends Disposable {
  /** Terminal sign-ins under way, by agent (a second request shows the same terminal). */
  private readonly running = new Map<string, Promise<boolean>>();
  /** Each terminal sign-in's terminal, disposed when it ends or with this owner. */
  private readonly scopes = new Set<DisposableStore>();
  private disposed = false;

  constructor(
    private readonly agents: Pick<Agents, 'get'>,
    private readonly workspace: WorkspacePort,
    private readonly log: ServiceLog,
    private readonly ui: SignInUi,
    private readonly restart: (agentId: string) => Promise<void>,
    /** The user's language for what the UI shows (vscode.l10n in the product). */
    private readonly l10n: L10n = english,
  ) {
    super();
  }

  override dispose(): void {
    this.disposed = true;
    for (const s of this.scopes) s.dispose();
    this.scopes.clear();
    super.dispose();
  }

  /**
   * The agent refused `what` with auth_required: says so and offers sign-in. Resolves true once
   * signed in (the caller then retries what failed), false when the user declined or it failed
   * (each failure is shown with what to do).
   */
  async afterAuthRequired(agentId: string, what: SignInAction, detail: string): Promise<boolean> {
    const name = this.agents.get(agentId)?.def.name ?? agentId;
    this.log.warn(`${name} asks for sign-in before it can ${what}: ${detail}`);
    if (!(await this.ui.askToSignIn(name, what))) return false;
    return this.signIn(agentId);
  }

  /** Lets the user pick a sign-in method of a running agent and signs in with it. */
  async signIn(agentId: string): Promise<boolean> {
    const sup = this.agents.get(agentId);
    const conn = sup?.connection;
    const l10n = this.l10n;
    if (!sup || !conn) throw new Error(l10n.t('{0} is not running. Start it, then sign in.', sup?.def.name ?? agentId));
    const name = sup.def.name;
    if (conn.authMethods.length === 0) {
      this.ui.showError(l10n.t("{0} offers no sign-in method. Sign in with the agent's own tools outside VS Code, then restart the agent.", name));
      return false;
    }
    const m = await this.ui.pickMethod(name, conn.authMethods);
    if (!m) return false;
    if (m.type === 'terminal' && sup.def.remote) {
      this.ui.showError(
        l10n.t('"{0}" signs in by running {1}\'s program here, but {1} runs on another machine. Sign in there, or pick another method.', m.name, name),
      );
      return false;
    }
    if (m.type === 'terminal') return this.inTerminal(sup, m);
    if (m.type !== 'agent') {
      this.ui.showError(
        l10n.t(
          '"{0}" is a sign-in method of type "{1}", which ACP Plans cannot use. Pick another method, or sign in outside VS Code and restart the agent.',
          m.name,
          m.type,
        ),
      );
      return false;
    }
    try {
      await conn.authenticate(m.id);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.log.error(`${name}: sign-in with "${m.name}" failed: ${message}`);
      this.ui.showError(l10n.t('Signing in to {0} with "{1}" failed: {2}. Try again, or pick another method.', name, m.name, message));
      return false;
    }
    this.ui.showInfo(l10n.t('Signed in to {0}.', name));
    return true;
  }

  private inTerminal(sup: AgentHandle, m: AuthMethod): Promise<boolean> {
    const under = this.running.get(sup.id);
    if (under) return under;
    const run = this.runTerminal(sup, m).finally(() => this.running.delete(sup.id));
    this.running.set(sup.id, run);
    return run;
  }

  private async runTerminal(sup: AgentHandle, m: AuthMethod): Promise<boolean> {
    this.workspace.assertTrusted();
    const def = sup.def;
    const checked = this.checkedInputs(def.name, m);
    if (!checked) return false;
    const { vars, extraArgs } = checked;
    const args = [...def.args, ...extraArgs];
    const cwd = def.cwd ?? this.workspace.folders()[0]?.fsPath;
    const names = vars.length ? `, variables ${vars.map((v) => v.name).join(', ')}` : '';
    this.log.info(`${def.name}: terminal sign-in "${m.name}": ${path.basename(def.command)} with ${extraArgs.length} extra argument(s)${names}`);
    const confirmation = signInConfirmation(
      {
        agentName: def.name,
        methodName: m.name,
        command: def.command,
        configuredArgs: def.args,
        extraArgs,
        vars,
        cwd,
      },
      this.l10n,
    );
    if (!(await this.ui.confirmTerminalRun(confirmation)) || this.disposed) {
      this.log.info(`${def.name}: terminal sign-in "${m.name}" cancelled; nothing ran`);
      return false;
    }
    this.workspace.assertTrusted();
    if (!(await this.signInTerminal(def.name, { command: def.command, args, env: { ...def.env, ...envRecord(vars) }, cwd }))) return false;
    this.log.info(`${def.name}: terminal sign-in finished; restarting the agent`);
    await this.restart(sup.id);
    this.ui.showInfo(this.l10n.t('Signed in to {0}; the agent restarted.', def.name));
    return true;
  }

  /**
   * The method's variables and arguments come from the agent: only the variables a sign-in needs
   * (signInEnv.ts's allow-list) and plain arguments, so a click on "Log in" runs the configured
   * command and nothing the agent slipped in; then the user sees exactly what will run. Undefined
   * (said to the user) when the method asks for anything else.
   */
  private checkedInputs(agentName: string, m: AuthMethod): { vars: SignInVar[]; extraArgs: string[] } | undefined {
    const l10n = this.l10n;
    try {
      return { vars: checkSignInEnv(m.env, l10n), extraArgs: checkSignInArgs(m.args, l10n) };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.log.warn(`${agentName}: terminal sign-in "${m.name}" refused: ${message}`);
      this.ui.showError(
        l10n.t(
          '{0}\'s sign-in method "{1}" was not run. {2} Sign in with the agent\'s own tools outside VS Code, then restart the agent.',
          agentName,
          m.name,
          message,
        ),
      );
      return undefined;
    }
  }

  /** Runs the sign-in in a terminal; true when it exits with status 0 (else says why the user is not signed in). */
  private async signInTerminal(agentName: string, spec: Omit<TerminalSpec, 'name'>): Promise<boolean> {
    const l10n = this.l10n;
    const scope = new DisposableStore();
    this.scopes.add(scope);
    try {
      const term = scope.add(this.ui.runInTerminal({ name: l10n.t('Sign in: {0}', agentName), ...spec }));
      const code = await term.exit;
      if (code === 0) return true;
      this.log.warn(`${agentName}: terminal sign-in ${code === undefined ? 'was closed before it finished' : `ended with exit code ${code}`}`);
      this.ui.showError(
        code === undefined
          ? l10n.t('Signing in to {0} in the terminal was closed before it finished, so you are not signed in. Run "ACP: Sign In" to try again.', agentName)
          : l10n.t('Signing in to {0} in the terminal ended with exit code {1}, so you are not signed in. Run "ACP: Sign In" to try again.', agentName, code),
      );
      return false;
    } finally {
      this.scopes.delete(scope);
      scope.dispose();
    }
  }
}
