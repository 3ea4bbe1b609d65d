// The Conversation follows the bottom of a stream unless the user scrolled up (issue 43). The Demo
// Agent (v1) sends its `/workload` turn — 2,000 message chunks, 41 plan updates and 500 tool-call
// events — as a burst and at a steady pace, run after run in one session (so the view also drops
// its oldest items). Nobody scrolls; in some runs the view changes under the stream as it does for
// a person who looks elsewhere or resizes the window: it is opened again (a snapshot, then the
// rest of the window as an earlier page) or the window shrinks and grows. At the end of every run
// the last item is inside the transcript's visible area (the webview's DOM rects). A wheel turned
// up over the transcript, or Page Up, stops the following while the stream goes on; back at the
// bottom (the wheel, End), the view follows again.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { sessionKey } from '../../src/state/sessionStore';
import { messageText } from '../../src/state/transcript';
import type { DomSnapshot } from '../../src/ui/conversation';
import { prompt, session, startDemo, turnEnd, type SessionRef } from './support/demo';
import { waitFor, type TestApi as AcpPlansApi } from './support/ext';
import { hasUiHook, uiPress, uiViewport, waitForWebview, webviewClick, webviewRects, webviewWheel, type FrameRects } from './ui';

const PACE = 400; // updates a second: a run takes about 6 s
/** The user's stream: slow enough (about 50 s) for a person to scroll while it goes on. */
const USER_PACE = 50;
const ITEMS = '.transcript .items > .item';
const LAST = `${ITEMS}:last-child`;
/** The agent message that ends a run, before its turn's end. */
const SAID = `${ITEMS}:nth-last-child(2)`;
const said = (rate: number): string => `workload: sent 2541 updates at ${rate ? `${rate}/s` : 'full speed'}`;

/** What happens to the view while a run streams (nobody scrolls). */
type During = 'nothing' | 'the view opened again' | 'the window resized';
const CHANGES: During[] = ['the view opened again', 'the window resized', 'nothing'];
/**
 * Runs per stream in the suite: a burst twice (the view opened again, the window resized), the paced
 * stream once; ACP_FOLLOW_RUNS=10 runs each ten times (the measurement: 10 of 10), cycling the changes.
 */
const runs = (dflt: number): During[] => Array.from({ length: Number(process.env.ACP_FOLLOW_RUNS) || dflt }, (_, i) => CHANGES[i % CHANGES.length]!);

async function poll<T>(f: () => Promise<T>, ok: (v: T) => boolean, what: string, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  let last = await f();
  while (!ok(last)) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}; last: ${JSON.stringify(last).slice(0, 1500)}`);
    await new Promise((r) => setTimeout(r, 150));
    last = await f();
  }
  return last;
}

/** Whether, in every frame, the last item ends inside the transcript's visible area and the frame's viewport. */
function inView(frames: FrameRects[]): boolean {
  return (
    frames.length > 0 &&
    frames.every((f) => {
      const r = f.rects[f.rects.length - 1];
      return !!f.area && !!r && r.top >= f.area.top - 1 && r.bottom <= f.area.bottom + 1 && r.bottom <= f.innerHeight + 1;
    })
  );
}

const where = (frames: FrameRects[]): string =>
  frames
    .map((f) => {
      const r = f.rects[f.rects.length - 1];
      return `last item at ${Math.round(r?.top ?? NaN)}..${Math.round(r?.bottom ?? NaN)}, visible area ${Math.round(f.area?.top ?? NaN)}..${Math.round(f.area?.bottom ?? NaN)}`;
    })
    .join('; ');

const away = (s: DomSnapshot): number => s.scroll.max - s.scroll.top;

describe('Conversation follows the stream', function () {
  this.timeout(600_000);
  let a: AcpPlansApi;
  let ref: SessionRef;
  let restore: (() => Promise<void>) | undefined;
  const snap = (): Promise<DomSnapshot> => a.internals.conversation.requestDomSnapshot();
  const key = (): string => sessionKey(ref.agentId, ref.sessionId);

  async function showConversation(): Promise<void> {
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    await vscode.commands.executeCommand('acp.conversation.focus');
    // A webview that is still loading answers nothing: asked again.
    await poll(
      () => snap().catch(() => undefined),
      (s) => s?.sessionId === key(),
      'the Demo session in the conversation',
      60_000,
    );
  }

  before(async function () {
    if (!hasUiHook()) this.skip();
    ({ a, ref, restore } = await startDemo('1'));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await showConversation();
  });
  // A test that failed mid-turn leaves its turn running: the next one starts from an idle session.
  afterEach(async () => {
    const s = session(a, ref);
    if (!s || (s.turnState === 'idle' && s.queued.length === 0)) return;
    await vscode.commands.executeCommand('acp.cancelTurn', ref);
    await waitFor(a.internals.store.onDidChange, () => session(a, ref)?.turnState === 'idle', 60_000, 'the turn cancelled');
  });
  after(async () => {
    if (hasUiHook()) await uiViewport(1280, 800);
    await restore?.();
  });

  /** Where the session's transcript ends now (the next run's items come after). */
  const endOf = (): number => a.internals.transcript.session(key())?.endIndex ?? 0;

  /** The number of the newest chunk (`‹k@…›`) of the run whose items start at `from`. */
  function newestChunk(from: number): number {
    const s = a.internals.transcript.session(key());
    const items = s?.slice(Math.max(from, s.firstIndex)) ?? [];
    for (let i = items.length - 1; i >= 0; i--) {
      const item = items[i]!;
      if (item.kind !== 'message' || item.role !== 'agent') continue;
      const stamps = [...messageText(item).matchAll(/‹(\d+)@/g)];
      if (stamps.length) return Number(stamps[stamps.length - 1]![1]);
    }
    return 0;
  }

  /** Resolves once the run whose items start at `from` has streamed chunk `k`. */
  const reached = (k: number, from: number): Promise<void> =>
    waitFor(a.internals.transcript.onDidChange, () => newestChunk(from) >= k, 60_000, `chunk ${k} of the stream`);

  /** Runs `/workload <rate>` with nobody scrolling; returns where its last item ended up (null: in view). */
  async function run(rate: number, during: During): Promise<string | null> {
    const from = endOf();
    await prompt(ref, `/workload ${rate}`);
    await reached(300, from);
    if (during === 'the view opened again') {
      await vscode.commands.executeCommand('workbench.view.explorer');
      await showConversation();
    } else if (during === 'the window resized') {
      await uiViewport(1280, 700);
      await reached(600, from);
      await uiViewport(1280, 800);
    }
    await turnEnd(a, ref, 120_000);
    await waitForWebview(SAID, (t) => t.some((x) => x.includes(said(rate))), 30_000);
    // A view that follows has the end in view at the frame after the last delta; one that stopped never does.
    const end = Date.now() + 5000;
    let frames = await webviewRects(LAST, '.transcript');
    while (!inView(frames) && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 100));
      frames = await webviewRects(LAST, '.transcript');
    }
    if (inView(frames)) return null;
    const s = (await snap()).scroll;
    return `${where(frames)}, scrolled to ${Math.round(s.top)} of ${Math.round(s.max)}`;
  }

  /** Turns the wheel down to the bottom, as a person would (each run starts there). */
  async function toBottom(): Promise<void> {
    const s = await snap();
    if (away(s) <= 1) return;
    assert.ok(await webviewWheel('.transcript', away(s) + 1000), 'the wheel turned over the transcript');
    await poll(snap, (x) => away(x) <= 1, 'the view at the bottom');
  }

  for (const [name, rate, RUNS] of [
    ['a burst', 0, runs(2)],
    [`a stream paced at ${PACE} updates a second`, PACE, runs(1)],
  ] as const)
    it(`reaches the end of ${name} of 2,000 chunks, 41 plan updates and 500 tool events in ${RUNS.length} of ${RUNS.length} runs`, async () => {
      const lost: string[] = [];
      for (const [i, during] of RUNS.entries()) {
        await toBottom();
        const missed = await run(rate, during);
        console.log(`      run ${i + 1} (${during}): ${missed ? `stopped following (${missed})` : 'followed to the end'}`);
        if (missed) lost.push(`run ${i + 1} (${during}): ${missed}`);
      }
      assert.deepStrictEqual(lost, [], `the view stopped following in ${lost.length} of ${RUNS.length} runs`);
    });

  /** Waits until the view rests (two readings agree) away from the bottom; returns where. */
  async function restsAway(): Promise<DomSnapshot> {
    let before = await snap();
    return poll(
      snap,
      (s) => {
        const still = s.scroll.top === before.scroll.top && away(s) > 300;
        before = s;
        return still;
      },
      'the view to rest away from the bottom',
    );
  }

  /** While the stream goes on, the view does not follow: more content comes below it, the end stays out of view. */
  async function staysAway(at: DomSnapshot, from: number, what: string): Promise<void> {
    await reached(newestChunk(from) + 100, from);
    const later = await snap();
    assert.ok(away(later) > away(at) + 300, `${what}: the view stayed where the user scrolled (${away(at)} px above the bottom, then ${away(later)})`);
    assert.ok(!inView(await webviewRects(LAST, '.transcript')), `${what}: the end is not brought into view`);
  }

  async function endInView(rate: number): Promise<void> {
    await turnEnd(a, ref, 120_000);
    await waitForWebview(SAID, (t) => t.some((x) => x.includes(said(rate))), 30_000);
    const frames = await poll(() => webviewRects(LAST, '.transcript'), inView, 'the end of the turn in view', 5000);
    assert.ok(inView(frames), where(frames));
  }

  it('stops following when the user turns the wheel up, and follows again once the wheel brings the view back to the bottom', async () => {
    await toBottom();
    const from = endOf();
    await prompt(ref, `/workload ${USER_PACE}`);
    await reached(300, from);
    assert.ok(await webviewWheel('.transcript', -600), 'the wheel turned over the transcript');
    await staysAway(await restsAway(), from, 'wheel up');
    assert.ok(await webviewWheel('.transcript', away(await snap()) + 1000));
    await endInView(USER_PACE);
  });

  it('stops following on Page Up in the transcript, and follows again on End', async () => {
    await toBottom();
    const from = endOf();
    await prompt(ref, `/workload ${USER_PACE}`);
    await reached(300, from);
    // The keyboard focus in the transcript, as a click on its text puts it.
    assert.ok(await webviewClick('.transcript'), 'clicked into the transcript');
    await uiPress('PageUp');
    await uiPress('PageUp');
    await staysAway(await restsAway(), from, 'Page Up');
    await uiPress('End');
    await endInView(USER_PACE);
  });
});
