// Test-side helpers that reach the real workbench UI (the browser page) through a small HTTP hook
// served by test/harness/run-vscode-tests.mjs on 127.0.0.1 (port in VSCODE_TEST_UI_HOOK).
// The extension host is a Node process on the server; it cannot see the DOM by itself.

const hook = process.env.VSCODE_TEST_UI_HOOK;

async function call<T>(route: string, params: Record<string, string>): Promise<T> {
  if (!hook) throw new Error('VSCODE_TEST_UI_HOOK is not set (run through test/harness/run-vscode-tests.mjs)');
  const res = await fetch(`${hook}/${route}?${new URLSearchParams(params)}`);
  const body = (await res.json()) as T & { error?: string };
  if (!res.ok) throw new Error(body.error ?? `${route}: HTTP ${res.status}`);
  return body;
}

export const hasUiHook = (): boolean => !!hook;

/** Saves a PNG of the whole workbench as it is now; returns the file path. */
export async function screenshot(name: string): Promise<string> {
  return (await call<{ file: string }>('screenshot', { name })).file;
}

/** innerText of every element matching a CSS selector in the workbench page. */
export async function uiTexts(selector: string): Promise<string[]> {
  return (await call<{ texts: string[] }>('texts', { selector })).texts;
}

/** Polls uiTexts(selector) until predicate holds (or throws after timeoutMs). */
export async function waitForUi(selector: string, predicate: (texts: string[]) => boolean, timeoutMs = 10000): Promise<string[]> {
  const end = Date.now() + timeoutMs;
  let last: string[] = [];
  while (Date.now() < end) {
    last = await uiTexts(selector);
    if (predicate(last)) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`UI condition not met for ${selector}; last texts: ${JSON.stringify(last)}`);
}

/**
 * The workbench's log lines (its last few thousand) matching `pattern`. Under tests the workbench
 * shows no dialog: it logs that it refused one (a prompt) instead, which is how a test sees it.
 */
export async function uiLog(pattern: string): Promise<string[]> {
  return (await call<{ lines: string[] }>('log', { pattern })).lines;
}

/** innerText of every element matching `selector` inside the workbench's webview frames. */
export async function webviewTexts(selector: string): Promise<string[]> {
  return (await call<{ texts: string[] }>('webview-texts', { selector })).texts;
}

/** Polls webviewTexts(selector) until predicate holds. */
export async function waitForWebview(selector: string, predicate: (texts: string[]) => boolean, timeoutMs = 15000): Promise<string[]> {
  const end = Date.now() + timeoutMs;
  let last: string[] = [];
  while (Date.now() < end) {
    last = await webviewTexts(selector);
    if (predicate(last)) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`webview condition not met for ${selector}; last texts: ${JSON.stringify(last).slice(0, 2000)}`);
}

/** Clicks the first element matching `selector` (and containing `text`) in a webview frame. */
export async function webviewClick(selector: string, text?: string): Promise<boolean> {
  return (await call<{ clicked: boolean }>('webview-click', text ? { selector, text } : { selector })).clicked;
}

/** Turns the mouse wheel by `dy` pixels (negative: up) over the first element matching `selector` in a webview frame. */
export async function webviewWheel(selector: string, dy: number): Promise<boolean> {
  return (await call<{ wheeled: boolean }>('webview-wheel', { selector, dy: String(dy) })).wheeled;
}

/** Keeps the workbench's main thread (which its webviews share) busy `ms` of every `every` ms; 0 stops it. */
export async function uiBusy(ms: number, every = 100): Promise<void> {
  await call('busy', { ms: String(ms), every: String(every) });
}

/** Clicks the first element matching `selector` (and containing `text`) in the workbench. */
export async function uiClick(selector: string, text?: string): Promise<void> {
  await call('click', text ? { selector, text } : { selector });
}

/** The attribute `name` of every element matching `selector` in the workbench (webview: in its webview frames). */
export async function uiAttrs(selector: string, name: string, webview = false): Promise<(string | null)[]> {
  return (await call<{ values: (string | null)[] }>('attrs', { selector, name, ...(webview ? { webview: '1' } : {}) })).values;
}

/** Presses keys in the workbench as a person would: chord parts separated by spaces ("Control+Quote P"). */
export async function uiPress(keys: string): Promise<void> {
  await call('press', { keys });
}

/** Types text where the keyboard focus is. */
export async function uiType(text: string): Promise<void> {
  await call('type', { text });
}

/**
 * Starts noting, in the workbench page (or, with `webview`, in its webviews' frames), when each value
 * of `pattern`'s first group first appears under the element `root` (at the frame that paints it);
 * `watched(key)` reads what was seen.
 */
export async function watchUi(key: string, root: string, pattern: string, webview = false): Promise<void> {
  await call('watch', { key, root, pattern, ...(webview ? { webview: '1' } : {}) });
}

/** What `watchUi(key, …)` saw: value, wall-clock ms when first painted, the pattern's second group. */
export async function watchedUi(key: string, webview = false): Promise<[string, number, string][]> {
  return (await call<{ seen: [string, number, string][] }>('watched', { key, ...(webview ? { webview: '1' } : {}) })).seen;
}

/** Polls what the page's watcher saw until `done` holds or `ms` pass (the watcher itself is event-driven). */
export async function watchedUntil(
  key: string,
  done: (seen: [string, number, string][]) => boolean,
  ms: number,
  webview = false,
): Promise<[string, number, string][]> {
  const end = Date.now() + ms;
  let seen = await watchedUi(key, webview);
  while (!done(seen) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 250));
    seen = await watchedUi(key, webview);
  }
  return seen;
}

/** Starts a Chrome trace of the page (diagnosis); `stopUiTrace(file)` writes it. */
export async function startUiTrace(): Promise<void> {
  await call('trace', { start: '1' });
}

export async function stopUiTrace(file: string): Promise<void> {
  await call('trace', { stop: file });
}

/** Resizes the workbench's browser page (as a window resized to width × height). */
export async function uiViewport(width: number, height: number): Promise<void> {
  await call('viewport', { width: String(width), height: String(height) });
}

export interface Rect {
  top: number;
  bottom: number;
  left: number;
  right: number;
  height: number;
}
export interface FrameRects {
  rects: Rect[];
  area: Rect | null;
  innerHeight: number;
  innerWidth: number;
}

/** Per webview frame that has `selector`: its elements' rects, the rect of `within` and the frame's viewport. */
export async function webviewRects(selector: string, within = 'body'): Promise<FrameRects[]> {
  return (await call<{ frames: FrameRects[] }>('webview-rects', { selector, within })).frames;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string; summary: string }[];
}

/** axe-core's violations in every webview frame that has `selector` (one audit per frame). */
export async function webviewAxe(selector: string): Promise<{ url: string; violations: AxeViolation[] }[]> {
  return (await call<{ audits: { url: string; violations: AxeViolation[] }[] }>('axe', { selector })).audits;
}
