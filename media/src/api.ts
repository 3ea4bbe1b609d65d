// The webview's side of the channel to the extension.
import type { FromWebview } from '../../src/ui/conversation/webviewMessages';

interface VsCodeApi {
  postMessage(msg: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();

export function post(msg: FromWebview): void {
  api.postMessage(msg);
}

export function loadState<T>(): Partial<T> {
  const s = api.getState();
  return s && typeof s === 'object' ? (s as Partial<T>) : {};
}

export function saveState<T>(state: T): void {
  api.setState(state);
}
