// Ownership of disposables (src/common/lifecycle.ts): an owner disposes what it registered once,
// newest first, however often it is disposed; a store can be cleared and reused; toDisposable runs
// its function once.

import assert from 'node:assert/strict';
import { Disposable, DisposableStore, toDisposable, type IDisposable } from '../../../src/common/lifecycle';

class Owner extends Disposable {
  add<T extends IDisposable>(d: T): T {
    return this._register(d);
  }
}

describe('lifecycle', () => {
  it('disposes registered items once, newest first, and dispose() is idempotent', () => {
    const log: string[] = [];
    const owner = new Owner();
    for (const name of ['a', 'b', 'c']) owner.add({ dispose: () => log.push(name) });
    owner.dispose();
    owner.dispose();
    assert.deepEqual(log, ['c', 'b', 'a']);
  });

  it('disposes at once what is registered after the owner is disposed', () => {
    const log: string[] = [];
    const owner = new Owner();
    owner.dispose();
    owner.add({ dispose: () => log.push('late') });
    assert.deepEqual(log, ['late']);
    owner.dispose();
    assert.deepEqual(log, ['late']);
  });

  it('goes on disposing when one item throws', () => {
    const log: string[] = [];
    const owner = new Owner();
    owner.add({ dispose: () => log.push('first') });
    owner.add({
      dispose: () => {
        throw new Error('boom');
      },
    });
    owner.add({ dispose: () => log.push('last') });
    owner.dispose();
    assert.deepEqual(log, ['last', 'first']);
  });

  it('a store clears for reuse and disposes for good', () => {
    const log: string[] = [];
    const store = new DisposableStore();
    store.add({ dispose: () => log.push('1') });
    store.add({ dispose: () => log.push('2') });
    store.clear();
    assert.deepEqual(log, ['2', '1']);
    assert.equal(store.isDisposed, false);
    store.add({ dispose: () => log.push('3') });
    store.dispose();
    store.dispose();
    assert.deepEqual(log, ['2', '1', '3']);
    assert.equal(store.isDisposed, true);
  });

  it('toDisposable runs its function once', () => {
    let runs = 0;
    const d = toDisposable(() => runs++);
    d.dispose();
    d.dispose();
    assert.equal(runs, 1);
  });
});
