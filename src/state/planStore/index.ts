// The plan store: every plan of every session, its revisions and its archive, within the caps and
// the agents' memory budgets (store.ts says what is kept). This file is its one entry: code
// outside this folder imports `…/state/planStore` and nothing below it (eslint.config.mjs).
//
// Its files import only downwards, each only from those listed before it (a unit test,
// test/unit/state/planStoreLayers.test.ts, reads this list and checks every import):
//   records.ts    the records it hands out (plans, revisions, changes, snapshots) and the caps
//   content.ts    a new revision's content: copied and measured reusing the current one, cut to the byte cap
//   revisions.ts  a plan's revisions: its own record of a plan, older revisions kept as deltas, the history caps
//   order.ts      which plans go first: a session's live cap and archive, each agent's order and budget
//   store.ts      PlanStore: session events in, change events out, the queries
//   index.ts      this entry
// Shared with other layers, outside this folder: the plan types (../planTypes/), summaries
// (../planSummary.ts) and sizes (../planBytes.ts).
export { PlanStore } from './store';
export type { PlanChange, PlanRecord, PlanRef, PlanSnapshot } from './records';
// What an old revision holds itself (heldEntries): for tests and diagnostics.
export type { StoredRevision } from './revisions';
// The copy-with-reuse, for bench/src/checkPlanClone.ts (it checks it against JSON's copy).
export { cloneReusing } from './content';
