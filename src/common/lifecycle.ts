// Ownership of disposables, free of `vscode` (usable everywhere): a `Disposable` base class whose
// `_register` ties a resource to the owner's lifetime, and a `DisposableStore` for scopes that are
// cleared and refilled (an agent's connection scope, cleared on every restart).
export interface IDisposable {
  dispose(): void;
}

export function toDisposable(fn: () => void): IDisposable {
  let done = false;
  return {
    dispose: () => {
      if (!done) {
        done = true;
        fn();
      }
    },
  };
}

/** A set of disposables disposed together; `clear()` empties it for reuse, `dispose()` for good. */
export class DisposableStore implements IDisposable {
  private items = new Set<IDisposable>();
  private disposed = false;

  add<T extends IDisposable>(d: T): T {
    if (this.disposed) d.dispose();
    else this.items.add(d);
    return d;
  }

  /** Disposes everything held (newest first); the store stays usable. */
  clear(): void {
    const items = [...this.items].reverse();
    this.items = new Set();
    for (const d of items) {
      try {
        d.dispose();
      } catch {
        /* one failing dispose must not keep the others alive */
      }
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.clear();
  }

  get isDisposed(): boolean {
    return this.disposed;
  }
}

/** Base class for owners: everything passed to `_register` is disposed with the owner (once). */
export abstract class Disposable implements IDisposable {
  private readonly _store = new DisposableStore();

  protected _register<T extends IDisposable>(d: T): T {
    return this._store.add(d);
  }

  protected get isDisposed(): boolean {
    return this._store.isDisposed;
  }

  dispose(): void {
    this._store.dispose();
  }
}
