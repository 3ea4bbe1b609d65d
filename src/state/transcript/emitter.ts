// A minimal event emitter for the state layer (no `vscode`). Listeners run synchronously, in
// subscription order; a throwing listener never stops the others nor the store that fires.
import type { Disposable, Event, Listener } from '../../protocol/api';

export class Emitter<T> implements Disposable {
  private listeners: Listener<T>[] = [];
  private disposed = false;

  constructor(private readonly onListenerError?: (err: unknown) => void) {}

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

  fire(e: T): void {
    // `listeners` is replaced (never mutated) on (un)subscribe, so iterating it is safe.
    for (const l of this.listeners) {
      try { l(e); } catch (err) { this.onListenerError?.(err); }
    }
  }

  get hasListeners(): boolean { return this.listeners.length > 0; }

  dispose(): void {
    this.disposed = true;
    this.listeners = [];
  }
}
