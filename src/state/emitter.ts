// The one event emitter of the vscode-free layers (state/, intent/). Listeners run synchronously,
// in subscription order; a listener that throws never stops the others nor the store that fires
// (the error goes to `onListenerError`). The listener list is replaced, never mutated, on
// (un)subscribe, so `fire` iterates it without copying (it runs once per streamed chunk).
import type { Disposable, Event, Listener } from '../protocol/api';

export class Emitter<T> implements Disposable {
  private listeners: readonly Listener<T>[] = [];
  private disposed = false;

  constructor(
    private readonly onListenerError: (err: unknown) => void = () => {
      /* isolated */
    },
  ) {}

  /** Subscribe; the returned Disposable unsubscribes (idempotent). */
  readonly event: Event<T> = (listener: Listener<T>): Disposable => {
    if (this.disposed) return { dispose: () => undefined };
    this.listeners = [...this.listeners, listener];
    let live = true;
    return {
      dispose: () => {
        if (!live) return;
        live = false;
        const i = this.listeners.indexOf(listener);
        if (i >= 0) this.listeners = [...this.listeners.slice(0, i), ...this.listeners.slice(i + 1)];
      },
    };
  };

  get hasListeners(): boolean {
    return this.listeners.length > 0;
  }

  fire(e: T): void {
    for (const l of this.listeners) {
      try {
        l(e);
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }

  dispose(): void {
    this.disposed = true;
    this.listeners = [];
  }
}
