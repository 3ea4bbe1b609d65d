// The shared turn budget's queue: a task that throws is reported and does not keep the tasks behind
// it from running.
import * as assert from 'node:assert';
import { later, onTaskError } from '../../../src/protocol/transport/turnBudget';

describe('turn budget: queued tasks', () => {
  afterEach(() => onTaskError());

  it('reports a task that throws and still runs the tasks behind it, in order', async () => {
    const reported: unknown[] = [];
    onTaskError((e) => reported.push(e));
    const ran: number[] = [];
    await new Promise<void>((resolve) => {
      later(() => ran.push(1));
      later(() => {
        throw new Error('boom');
      });
      later(() => ran.push(3));
      later(resolve);
    });
    assert.deepStrictEqual(ran, [1, 3]);
    assert.strictEqual(reported.length, 1);
    assert.match(String(reported[0]), /boom/);
  });
});
