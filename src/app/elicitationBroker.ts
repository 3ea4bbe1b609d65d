// The one path of every elicitation (`elicitation/create`): a session-scoped one becomes a card in
// its conversation (a form, or a link shown with its host) and counts as "waiting for you" on its
// session; a request-scoped one (no session yet) is put to the user in a notification. A link is
// first checked where it really goes (checkLink): one that could hide its destination, or is not
// https, is never shown as a choice and never opened; its card (or a notification) says why and the
// agent gets `cancel`. The answer is the user's only: accept (a form checked by checkForm; a link
// opened only after the user agreed), decline or cancel. A request withdrawn by the agent, a cancelled turn, an agent that
// stops or a session that ends cancels it, and its card says so. `elicitation/complete` marks an
// opened link done.
import { randomUUID } from 'node:crypto';
import type { CancelToken } from '../protocol/api';
import type { ElicitationProblem, ElicitationRequest, ElicitationResponse, ElicitationValue } from '../protocol/elicitation';
import { Disposable, toDisposable } from '../common/lifecycle';
import { english, type L10n } from '../common/l10n';
import { checkLink, hostOf, refusedLinkNote } from '../common/linkTarget';
import type { RawValues } from '../state/elicitationValues';
import { formChecks } from '../state/elicitationChecks';
import { sessionKey, type SessionStore } from '../state/sessionStore';
import type { ElicitationItem, Transcript } from '../state/transcript';

/** How the broker reaches the user outside a conversation; tests may supply their own. */
export interface ElicitationUi {
  /** A request-scoped elicitation: resolves with the user's answer (undefined: dismissed → cancel). */
  askOutsideSession(agentName: string, req: ElicitationRequest): Promise<ElicitationResponse | undefined>;
  /** Opens an http(s) link the user agreed to open; false when it could not be opened. */
  openUrl(url: string): Promise<boolean>;
  /** Something the user must hear about that has no card (a request-scoped form that cannot be shown). */
  warn(message: string): void;
  /** Why a form or link cannot be shown, in the window's words (src/ui/elicitationWords.ts). */
  problemWords(problem: ElicitationProblem): string;
  /** Words the notes the transcript shows (`vscode.l10n` in the product; English without). */
  readonly l10n?: L10n;
}

export interface PendingElicitation {
  readonly id: string;
  readonly agentId: string;
  readonly agentName: string;
  readonly request: ElicitationRequest;
  /** The conversation showing it (session-scoped only). */
  readonly key: string | undefined;
}

interface Waiting {
  entry: PendingElicitation;
  resolve: (r: ElicitationResponse) => void;
}

export const withdrawnNote = (l10n: L10n = english): string =>
  l10n.t('Cancelled: the agent withdrew this request, the turn was cancelled, or the agent stopped.');

/** Elicitations of one agent waiting for the user at once; more are answered `cancel` at once. */
export const MAX_PENDING_ELICITATIONS_PER_AGENT = 16;

export class ElicitationBroker extends Disposable {
  private readonly waiting = new Map<string, Waiting>();
  /** Accepted links by agent and elicitationId, until the agent says they are complete. */
  private readonly opened = new Map<string, { key: string; id: string }>();
  private readonly run = randomUUID().slice(0, 8);
  private seq = 0;
  /** Agents already told about an elicitation this client cannot show outside a session (told once). */
  private readonly warned = new Set<string>();
  private readonly l10n: L10n;

  constructor(
    private readonly store: SessionStore,
    private readonly transcript: Transcript,
    private readonly ui: ElicitationUi,
  ) {
    super();
    this.l10n = ui.l10n ?? english;
    this._register(
      toDisposable(() => {
        for (const id of [...this.waiting.keys()]) this.settle(id, { action: 'cancel' }, 'cancelled', this.l10n.t('Cancelled: ACP Plans was closed.'));
      }),
    );
  }

  get pending(): PendingElicitation[] {
    return [...this.waiting.values()].map((w) => w.entry);
  }
  pendingFor(agentId: string, sessionId: string): PendingElicitation[] {
    return this.pending.filter((p) => p.agentId === agentId && p.request.scope.type === 'session' && p.request.scope.sessionId === sessionId);
  }

  request(agentId: string, agentName: string, req: ElicitationRequest, token: CancelToken): Promise<ElicitationResponse> {
    // An agent cannot bury the user in forms or notifications: past the cap, the answer is cancel.
    if (this.pending.filter((p) => p.agentId === agentId).length >= MAX_PENDING_ELICITATIONS_PER_AGENT) return Promise.resolve({ action: 'cancel' });
    const id = `elic-${this.run}-${++this.seq}`;
    const key = req.scope.type === 'session' ? sessionKey(agentId, req.scope.sessionId) : undefined;
    // A link whose real destination could differ from the host shown is never offered.
    const link = req.mode === 'url' ? checkLink(req.url, this.l10n) : undefined;
    const problem =
      link && !link.ok ? refusedLinkNote(link.reason, this.l10n) : req.mode === 'form' || req.mode === 'url' ? null : unusableNote(req, this.l10n, this.ui);
    if (key) this.transcript.addElicitation(key, itemFields(id, req, problem));
    if (problem) {
      if (!key && !this.warned.has(agentId)) {
        this.warned.add(agentId);
        this.ui.warn(this.l10n.t('{0} asked for input this client cannot show: {1}', agentName, problem));
      }
      return Promise.resolve({ action: 'cancel' });
    }
    if (token.isCancellationRequested) {
      this.end(key, id, 'cancelled', withdrawnNote(this.l10n));
      return Promise.resolve({ action: 'cancel' });
    }
    return new Promise<ElicitationResponse>((resolve) => {
      const entry: PendingElicitation = { id, agentId, agentName, request: req, key };
      const sub = token.onCancellationRequested(() => this.settle(id, { action: 'cancel' }, 'cancelled', withdrawnNote(this.l10n)));
      this.waiting.set(id, {
        entry,
        resolve: (r) => {
          sub.dispose();
          resolve(r);
        },
      });
      this.count(entry);
      if (!key) void this.askOutside(entry);
    });
  }

  /**
   * The user's answer from a card. A form is checked first (errors come back and show on the card,
   * nothing is sent); accepting a link opens it (http(s) only, checked when decoded) and then
   * answers `accept`; a link that did not open leaves the request waiting.
   */
  async answer(id: string, action: 'accept' | 'decline' | 'cancel', values: RawValues = {}): Promise<{ errors?: Record<string, string> }> {
    const w = this.waiting.get(id);
    if (!w) return {};
    const req = w.entry.request;
    if (action !== 'accept') {
      this.settle(id, { action }, action === 'decline' ? 'declined' : 'cancelled', null);
      return {};
    }
    if (req.mode === 'form') {
      const check = formChecks().checkForm(req.form, values, this.l10n);
      if (!check.ok) {
        this.end(w.entry.key, id, 'pending', this.l10n.t('Not sent: {0}', Object.values(check.errors).join(' ')));
        return { errors: check.errors };
      }
      this.settle(id, { action: 'accept', content: check.content }, 'accepted', null, answerLines(req, check.content));
      return {};
    }
    if (req.mode === 'url') {
      const link = checkLink(req.url);
      const opened = link.ok && (await this.ui.openUrl(link.url).catch(() => false));
      if (!opened) {
        // The card shows again with its buttons; nothing was answered.
        const note = this.l10n.t('{0} was not opened. Try again, or decline.', hostOf(req.url, this.l10n));
        if (this.waiting.has(id)) this.end(w.entry.key, id, 'pending', note);
        return { errors: { '': note } };
      }
      if (!this.waiting.has(id)) return {};
      this.opened.set(`${w.entry.agentId}\n${req.elicitationId}`, { key: w.entry.key ?? '', id });
      this.settle(id, { action: 'accept' }, 'accepted', this.l10n.t('Opened {0}. Waiting for the agent to finish…', hostOf(req.url, this.l10n)));
    }
    return {};
  }

  /** `elicitation/complete`: the card of the opened link shows it done. */
  complete(agentId: string, elicitationId: string): void {
    const k = `${agentId}\n${elicitationId}`;
    const done = this.opened.get(k);
    if (done) {
      this.opened.delete(k);
      if (done.key) this.transcript.updateElicitation(done.key, done.id, 'completed', 'Done: the agent finished this step.');
      return;
    }
    // Completed before the user answered: nothing is left to ask.
    const w = this.pending.find((p) => p.agentId === agentId && p.request.mode === 'url' && p.request.elicitationId === elicitationId);
    if (w) this.settle(w.id, { action: 'cancel' }, 'completed', 'The agent finished this step without you.');
  }

  /** Every elicitation of an agent that stopped: cancelled, and its cards say so. */
  cancelAgent(agentId: string, note: string): void {
    for (const p of this.pending) if (p.agentId === agentId) this.settle(p.id, { action: 'cancel' }, 'cancelled', note);
    for (const k of [...this.opened.keys()]) if (k.startsWith(`${agentId}\n`)) this.opened.delete(k);
  }

  /** Every elicitation of a session that ended. */
  cancelSession(agentId: string, sessionId: string, note: string): void {
    for (const p of this.pendingFor(agentId, sessionId)) this.settle(p.id, { action: 'cancel' }, 'cancelled', note);
  }

  private settle(id: string, response: ElicitationResponse, state: ElicitationItem['state'], note: string | null, answer?: string[]): void {
    const w = this.waiting.get(id);
    if (!w) return;
    this.waiting.delete(id);
    w.resolve(response);
    this.count(w.entry);
    this.end(w.entry.key, id, state, note, answer);
  }

  private end(key: string | undefined, id: string, state: ElicitationItem['state'], note: string | null, answer?: string[]): void {
    if (key) this.transcript.updateElicitation(key, id, state, note, answer);
  }

  private count(entry: PendingElicitation): void {
    const s = entry.request.scope;
    if (s.type === 'session') this.store.setPendingElicitations(entry.agentId, s.sessionId, this.pendingFor(entry.agentId, s.sessionId).length);
  }

  private async askOutside(entry: PendingElicitation): Promise<void> {
    let r: ElicitationResponse | undefined;
    try {
      r = await this.ui.askOutsideSession(entry.agentName, entry.request);
    } catch {
      r = undefined;
    }
    if (!this.waiting.has(entry.id)) return;
    const req = entry.request;
    if (r?.action === 'accept' && req.mode === 'form') {
      const check = formChecks().checkForm(req.form, (r.content ?? {}) as RawValues, this.l10n);
      r = check.ok ? { action: 'accept', content: check.content } : { action: 'cancel' };
    }
    this.settle(entry.id, r ?? { action: 'cancel' }, r?.action === 'accept' ? 'accepted' : r?.action === 'decline' ? 'declined' : 'cancelled', null);
  }
}

function unusableNote(req: ElicitationRequest, l10n: L10n, ui: ElicitationUi): string {
  if (req.mode === 'unusable') return l10n.t('Not shown: {0}. Answered "cancel"; the agent may ask again in another way.', ui.problemWords(req.problem));
  if (req.mode === 'unknown') return l10n.t('Not shown: this client does not know the mode "{0}". Answered "cancel".', req.rawMode);
  return '';
}

function itemFields(requestId: string, req: ElicitationRequest, problem: string | null): Omit<ElicitationItem, 'kind' | 'itemId'> {
  const toolCallId = req.scope.type === 'session' ? req.scope.toolCallId : null;
  return {
    requestId,
    message: req.message,
    mode: req.mode,
    form: req.mode === 'form' ? req.form : null,
    url: req.mode === 'url' ? req.url : null,
    host: req.mode === 'url' && !problem ? hostOf(req.url) : null,
    toolCallId,
    problem,
    raw: req.mode === 'unknown' || req.mode === 'unusable' ? req.raw : null,
    state: problem ? 'cancelled' : 'pending',
    note: problem,
    answer: null,
  };
}

function answerLines(req: Extract<ElicitationRequest, { mode: 'form' }>, content: Record<string, ElicitationValue>): string[] {
  return req.form.fields
    .filter((f) => content[f.name] !== undefined)
    .map((f) => {
      const v = content[f.name]!;
      const shown =
        f.kind === 'choice' || f.kind === 'multi'
          ? (Array.isArray(v) ? v : [String(v)]).map((x) => f.options.find((o) => o.value === x)?.title ?? x).join(', ')
          : typeof v === 'boolean'
            ? v
              ? 'yes'
              : 'no'
            : String(v);
      return `${f.label}: ${shown.slice(0, 200)}`;
    });
}
