// A tiny, synchronous event emitter for the vscode-free layers. Listeners run in subscription
// order; a listener that throws does not stop the others (the error goes to `onListenerError`).
import type { Disposable, Event, Listener } from '../protocol/api';

export class Emitter<T> implements Disposable {
  private listeners: Listener<T>[] | undefined = [];

  constructor(private readonly onListenerError: (err: unknown) => void = () => { /* isolated */ }) {}

  /** Subscribe; the returned Disposable unsubscribes (idempotent). */
  readonly event: Event<T> = (listener: Listener<T>): Disposable => {
    if (!this.listeners) return { dispose() { /* emitter already disposed */ } };
    this.listeners.push(listener);
    let active = true;
    return {
      dispose: () => {
        if (!active) return;
        active = false;
        const i = this.listeners?.indexOf(listener) ?? -1;
        if (i >= 0) this.listeners!.splice(i, 1);
      },
    };
  };

  get hasListeners(): boolean { return (this.listeners?.length ?? 0) > 0; }

  fire(e: T): void {
    const ls = this.listeners;
    if (!ls || ls.length === 0) return;
    for (const l of ls.slice()) {
      try { l(e); } catch (err) { this.onListenerError(err); }
    }
  }

  dispose(): void { this.listeners = undefined; }
}
