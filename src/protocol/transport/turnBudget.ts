// One budget of work per turn of the event loop for every connection's reading and dispatching.
// Each reader used to stop after 8 ms of its own in a turn, so five agents streaming at once held
// the extension host ~40 ms a turn (and a dispatch backlog drained with no limit at all). Now all
// connections share the turn's 8 ms; a connection that finds it spent waits its turn in one queue,
// which later turns take in order, the connection that just ran going to the back (so a busy agent
// cannot keep the others' updates waiting). No `vscode`.

/** The work all connections do in one turn of the event loop before they let it turn (ms). */
export const SLICE_MS = 8;

let turnStart: number | undefined;
const waiting: (() => void)[] = [];
let pumping = false;
const warn = (e: unknown): void =>
  process.emitWarning(`ACP Plans: a queued read or dispatch failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
let reportTaskError: (e: unknown) => void = warn;

/** Where a queued task's exception goes (a process warning, which the extension host logs, by default; tests replace it). */
export function onTaskError(report: (e: unknown) => void = warn): void {
  reportTaskError = report;
}

function endTurn(): void {
  turnStart = undefined;
}

/**
 * Whether this turn's budget is spent. The first call of a turn starts its clock (the turn ends at
 * the next `setImmediate`); `budgetMs` Infinity: never spent.
 */
export function budgetSpent(budgetMs = SLICE_MS): boolean {
  const now = performance.now();
  if (turnStart === undefined) {
    turnStart = now;
    setImmediate(endTurn);
    return false;
  }
  return now - turnStart > budgetMs;
}

/** Runs `task` on a later turn, after the tasks already waiting. */
export function later(task: () => void): void {
  waiting.push(task);
  if (pumping) return;
  pumping = true;
  setImmediate(pump);
}

/**
 * Runs the tasks waiting, in order, while the turn's budget lasts. A task stopped by the budget
 * queues again behind the others; those it kept from running keep their places at the front.
 */
function pump(): void {
  pumping = false;
  while (waiting.length > 0 && !budgetSpent()) {
    const task = waiting.shift()!;
    try {
      task();
    } catch (e) {
      // A task handles its own failures; one that throws must not keep the others waiting, and is
      // reported rather than lost.
      reportTaskError(e);
    }
  }
  if (waiting.length > 0 && !pumping) {
    pumping = true;
    setImmediate(pump);
  }
}
