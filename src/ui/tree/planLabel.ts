// The label of a plan's row in the Plans tree. Pure (no `vscode`), so it is unit-tested directly.

/**
 * The plan row's label. An agent's own short name for a plan is kept as is (`impl`, `notes`); a
 * machine id (`codex-structured-plan`, `plan-mode`, the bare `plan`) gives way to the plan's title,
 * else reads as words ("Codex structured plan"). The planId is always in the tooltip.
 */
export function planLabel(planId: string, title?: string): string {
  const machine = /[-_.:/\s]/.test(planId.replace(/^_+/, '')) || planId.toLowerCase() === 'plan' || /\d{3,}/.test(planId);
  if (!machine) return planId;
  const heading = title?.replace(/\s+/g, ' ').trim();
  if (heading) return heading;
  const words = planId.replace(/[-_.:/\s]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : planId;
}
