// The conversation webview's script: builds the layout, applies the extension's snapshot and
// deltas, forwards user actions. Runs under a strict CSP (nonce script, no inline styles).
import type { DomSnapshot, InspectClick, ToWebview } from '../../src/ui/conversation/webviewMessages';
import { post } from './api';
import { Announcer } from './announcer';
import { CardRoom } from './cardRoom';
import { Composer } from './composer';
import { Header } from './header';
import { TranscriptView } from './transcriptView';

const header = new Header();
const transcript = new TranscriptView();
const composer = new Composer();
const announcer = new Announcer();
const cardRoom = new CardRoom(transcript.el, (card, until) => transcript.reveal(card, until));
document.getElementById('app')?.append(header.el, transcript.el, composer.el, announcer.el);

/** The text of the last agent message in the view (for the announcement at the end of a turn). */
function lastAgentText(): string | undefined {
  const all = transcript.el.querySelectorAll('.message.role-agent .blocks');
  return all.length ? (all[all.length - 1]!.textContent ?? undefined) : undefined;
}

// Escape in the transcript (a card's button, a link) goes back to the prompt; so does Escape on the
// page itself: a card answered by keyboard is redrawn, and its focused button goes with it.
document.addEventListener('keydown', (e) => {
  if (e.key !== 'Escape' || e.defaultPrevented) return;
  const at = document.activeElement;
  if (at && at !== document.body && !transcript.el.contains(at)) return;
  e.preventDefault();
  composer.focus();
});

window.addEventListener('message', (ev: MessageEvent) => {
  try {
    handle(ev.data as ToWebview);
  } catch (e) {
    post({ type: 'error', message: e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : String(e) });
  }
});

// Links never navigate the webview: the extension opens them (http(s) outside, files in an editor).
document.addEventListener('click', (e) => {
  const a = (e.target as Element | null)?.closest?.('a');
  if (!a) return;
  e.preventDefault();
  const href = a.getAttribute('href');
  if (href) post({ type: 'openLink', href });
});

window.addEventListener('error', (e) => post({ type: 'error', message: String(e.message) }));

function handle(m: ToWebview): void {
  switch (m.type) {
    case 'snapshot':
      transcript.snapshot(m);
      header.set(m.session);
      if (m.session && m.sessionId) announcer.turnState(m.sessionId, m.session.turnState, lastAgentText);
      composer.setSession(m.session);
      cardRoom.check();
      return;
    case 'delta':
      // Taken (applied in this same task): the host's next updates may come (renderPace.ts).
      if (m.seq !== undefined) post({ type: 'applied', seq: m.seq });
      if (m.sessionId !== transcript.currentSession) return;
      transcript.apply(m.ops);
      for (const op of m.ops) {
        if (op.op === 'session') {
          header.set(op.session);
          if (op.session) announcer.turnState(m.sessionId, op.session.turnState, lastAgentText);
          composer.setSession(op.session);
        }
      }
      cardRoom.check();
      return;
    case 'earlier':
      if (m.sessionId === transcript.currentSession) transcript.earlier(m.items, m.firstIndex, m.terminals);
      return;
    case 'mentionResults':
      composer.mentionResults(m.reqId, m.items);
      return;
    case 'focusInput':
      composer.focus();
      return;
    case 'filter':
      transcript.setFilter(m.filter);
      return;
    case 'mediaPicked':
      composer.mediaPicked(m.items, m.problems);
      return;
    case 'inspect':
      post({ type: 'inspectResult', reqId: m.reqId, snapshot: inspect(m.click) });
      return;
    default:
      m satisfies never;
  }
}

/** What the view shows (for tests and diagnostics); optionally clicks an element first. */
function inspect(click?: InspectClick): DomSnapshot {
  let clicked: boolean | undefined;
  if (click?.scrollTop !== undefined) transcript.scrollAsUser(click.scrollTop);
  if (click?.selector !== undefined) {
    const selector = click.selector;
    const target = Array.from(document.querySelectorAll<HTMLElement>(selector)).find(
      (el) => click.text === undefined || (el.textContent ?? '').includes(click.text),
    );
    clicked = !!target;
    if (click.value === undefined) target?.click();
    else if (target instanceof HTMLInputElement && typeof click.value === 'boolean') target.checked = click.value;
    else if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement) target.value = String(click.value);
    // As a person's typing would: listeners see the change.
    if (click.value !== undefined) for (const type of ['input', 'change']) target?.dispatchEvent(new Event(type, { bubbles: true }));
  }
  return {
    sessionId: transcript.currentSession,
    // What a sighted person reads: the visually hidden announcement is not part of it.
    text: [header.el, transcript.el, composer.el].map((el) => el.innerText).join('\n'),
    items: transcript.summary(),
    busy: composer.busy,
    counters: { ...transcript.counters },
    clicked,
    scroll: { top: transcript.el.scrollTop, max: transcript.el.scrollHeight - transcript.el.clientHeight },
  };
}

post({ type: 'ready' });
