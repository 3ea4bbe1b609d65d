// The budget phase of the battery (issue 25, class 1: budgets multiply): one connection floods
// past its agent's memory budget and the count caps. In the prompted session: `plans` Markdown
// plans of `planBytes` each under different planIds (more than the 200 live plans a session
// keeps); then `children` subagent sessions announced on it (more than the 100 per session), each
// sent a Markdown plan of `planBytes` of its own. With the defaults (230 plans, 120 children, just
// under 1 MiB each) the agent holds about 330 MiB where its budget is 256 MiB.
import { update, type Ctx } from './probes';

const KB = 1024;

export interface BudgetOptions {
  plans: number;
  children: number;
  planBytes: number;
}

export const BUDGET_DEFAULTS: BudgetOptions = { plans: 230, children: 120, planBytes: 1024 * KB - 512 };

/** The child session ids the phase announces (the test checks which of them the client kept). */
export function childId(parent: string, i: number): string {
  return `${parent}-child-${i}`;
}

/** A Markdown plan of about `bytes`: a title, two tasks, then plain paragraphs (cheap to outline, costly to keep). */
function markdown(title: string, filler: string): string {
  return `# ${title}\n\n- [x] flood the client\n- [ ] see what it kept\n\n${filler}`;
}

export async function budget(ctx: Ctx, o: BudgetOptions = BUDGET_DEFAULTS): Promise<void> {
  const sid = ctx.sessionId;
  const line = 'Every plan here is kept by the client until its agent budget says otherwise; '.repeat(13).slice(0, 1000) + '\n';
  const filler = line.repeat(Math.ceil(o.planBytes / line.length)).slice(0, o.planBytes - 100);
  const t0 = Date.now();
  for (let i = 0; i < o.plans; i++) {
    const plan = { type: 'markdown', planId: `flood-${i}`, content: markdown(`Flood plan ${i}`, filler) };
    await ctx.wire.send(update(sid, { sessionUpdate: 'plan_update', plan }));
  }
  ctx.results.add({ probe: 'budget.plans', cls: 'budget', sent: `${o.plans} Markdown plans of ${o.planBytes} bytes`, answer: 'sent', ms: Date.now() - t0 });
  for (let i = 0; i < o.children; i++) {
    const child = childId(sid, i);
    await ctx.wire.send(update(sid, { sessionUpdate: 'subagent_update', sessionId: child, title: `Flood child ${i}`, state: { state: 'running' } }));
    const plan = { type: 'markdown', planId: 'child-plan', content: markdown(`Child plan ${i}`, filler) };
    await ctx.wire.send(update(child, { sessionUpdate: 'plan_update', plan }));
  }
  ctx.results.add({
    probe: 'budget.children',
    cls: 'budget',
    sent: `${o.children} subagent sessions, each with a Markdown plan of ${o.planBytes} bytes`,
    answer: 'sent',
    ms: Date.now() - t0,
  });
}
