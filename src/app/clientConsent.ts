// Consent for what an agent asks the client itself to do (ACP v1 client services): run a command
// in a terminal (`terminal/create`) and write a file that runs code later (git hooks, editor
// tasks, CI workflows…). A command runs only when the user allowed exactly it: a permission the
// user granted for that command in this turn, a rule the user created, or a yes now. A sensitive
// write runs only after a yes now. Questions go through the permission broker, so they show in the
// conversation and a notification like any permission request, and are cancelled with the turn.
import type { PermissionOption, PermissionRequest } from '../protocol/domain';
import type { SessionStore } from '../state/sessionStore';
import type { TerminalApprovalRequest } from '../agents/terminalService';
import type { WriteConsentRequest } from '../agents/fileAccess';
import { quoteWords, shellWords } from '../consent/shellWords';
import { consentRules } from '../consent/loader';
import { Disposable } from '../common/lifecycle';
import { english, type L10n } from '../common/l10n';
import type { PermissionBroker, PermissionDecision } from './permissionBroker';

const NEVER_CANCELLED = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) };

export class ClientConsent extends Disposable {
  /** (agent, session) → command lines (words joined by NUL) the user allowed in the running turn. */
  private readonly grants = new Map<string, Set<string>>();

  constructor(
    private readonly broker: PermissionBroker,
    private readonly store: SessionStore,
    private readonly agentName: (agentId: string) => string,
    /** The user's language for the questions (vscode.l10n in the product). */
    private readonly l10n: L10n = english,
  ) {
    super();
    this._register(broker.onDidDecide((d) => this.noteGrant(d)));
    this._register(
      store.onDidChange((c) => {
        if (c.scope === 'session' && this.store.session(c.agentId, c.sessionId)?.turnState !== 'running') this.grants.delete(key(c.agentId, c.sessionId));
      }),
    );
  }

  /** For `terminal/create`: true only when the user allowed exactly this command. */
  async approveCommand(req: TerminalApprovalRequest): Promise<boolean> {
    const words = req.args.length ? [req.command, ...req.args] : splitLine(req.command);
    const line = words ? quoteWords(words) : req.command;
    const envNames = Object.keys(req.env);
    if (words && envNames.length === 0) {
      if (this.grants.get(key(req.agentId, req.sessionId))?.has(words.join('\0'))) return true;
      const asRequest: PermissionRequest = { sessionId: req.sessionId, title: line, subject: { type: 'command', command: line, cwd: req.cwd }, options: [] };
      if (this.broker.rules.some((r) => consentRules().ruleMatches(r, req.agentId, asRequest))) return true;
    }
    const l10n = this.l10n;
    const env = envNames.map((n) => `${n}=${JSON.stringify(req.env[n])}`).join(' ');
    return this.ask(req.agentId, {
      sessionId: req.sessionId,
      title: env ? l10n.t('Run a command in a terminal: {0} with {1}', line, env) : l10n.t('Run a command in a terminal: {0}', line),
      description: l10n.t('Folder: {0}', req.cwd),
      subject: { type: 'command', command: line, cwd: req.cwd },
      options: envNames.length ? once(l10n) : onceOrAlways(l10n),
    });
  }

  /** For `fs/write_text_file` to a file that runs code later: true only after a yes now. */
  confirmWrite(req: WriteConsentRequest): Promise<boolean> {
    const l10n = this.l10n;
    const linked = req.realPath && req.realPath !== req.path;
    return this.ask(req.agentId, {
      sessionId: req.sessionId,
      title: linked ? l10n.t('Write {0} (→ {1})', req.path, req.realPath!) : l10n.t('Write {0}', req.path),
      description: l10n.t('{0} Allow only if you expect this change.', req.reason),
      options: once(l10n),
    });
  }

  private async ask(agentId: string, req: PermissionRequest): Promise<boolean> {
    const outcome = await this.broker.request(agentId, this.agentName(agentId), req, NEVER_CANCELLED);
    return outcome.outcome === 'selected' && req.options.find((o) => o.optionId === outcome.optionId)?.kind.startsWith('allow') === true;
  }

  private noteGrant(d: PermissionDecision): void {
    if (d.outcome.outcome !== 'selected' || d.auto?.rejected) return;
    const chosen = d.outcome.optionId;
    if (!d.request.options.some((o) => o.optionId === chosen && o.kind.startsWith('allow'))) return;
    const words = commandOf(d.request);
    if (!words) return;
    const k = key(d.agentId, d.sessionId);
    const set = this.grants.get(k) ?? new Set<string>();
    set.add(words.join('\0'));
    this.grants.set(k, set);
  }
}

const once = (l10n: L10n): PermissionOption[] => [
  { optionId: 'allow', name: l10n.t('Allow'), kind: 'allow_once' },
  { optionId: 'reject', name: l10n.t('Reject'), kind: 'reject_once' },
];
const onceOrAlways = (l10n: L10n): PermissionOption[] => [
  { optionId: 'allow', name: l10n.t('Allow'), kind: 'allow_once' },
  { optionId: 'always', name: l10n.t('Always allow'), kind: 'allow_always' },
  { optionId: 'reject', name: l10n.t('Reject'), kind: 'reject_once' },
];

function key(agentId: string, sessionId: string): string {
  return `${agentId}\0${sessionId}`;
}

function splitLine(line: string): string[] | undefined {
  const r = shellWords(line);
  return r.ok ? r.words : undefined;
}

/** The command a permission request is about: a command subject, or a tool call's `rawInput.command`. */
function commandOf(req: PermissionRequest): string[] | undefined {
  const s = req.subject;
  if (s?.type === 'command') return splitLine(s.command);
  if (s?.type !== 'tool_call') return undefined;
  const input = s.fields.rawInput as { command?: unknown } | null | undefined;
  const c = input && typeof input === 'object' ? input.command : undefined;
  if (typeof c === 'string') return splitLine(c);
  if (Array.isArray(c) && c.length > 0 && c.every((x): x is string => typeof x === 'string')) return c;
  return undefined;
}
