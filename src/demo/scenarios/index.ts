// The scenario registry: a prompt starting with `/<name>` runs that scenario; anything else runs
// the default turn. One scenario per file.

import type { Block } from '../model';
import { burstScenario } from './burst';
import { commandPermissionScenario } from './commandPermission';
import { compactScenario } from './compact';
import { crashScenario } from './crash';
import { defaultTurn } from './defaultTurn';
import { elicitationScenario } from './elicitation';
import { fsScenario } from './fs';
import { declarePlanScenario } from './declarePlan';
import { intentScenario } from './intent';
import { longPlanScenario } from './longPlan';
import { permissionScenario } from './permission';
import { pixelScenario } from './pixel';
import { reviewAsks, reviewScenario } from './review';
import { workloadScenario } from './workload';
import { planModeScenario } from './planMode';
import { signinScenario } from './signin';
import type { Scenario } from './scenario';
import { slowScenario } from './slow';
import { steerScenario } from './steer';
import { subagentsScenario } from './subagents';
import { backgroundScenario } from './background';
import { teamScenario } from './team';
import { terminalScenario } from './terminal';
import { vtermScenario } from './vterm';

export const SCENARIOS: readonly Scenario[] = [
  fsScenario,
  terminalScenario,
  vtermScenario,
  permissionScenario,
  commandPermissionScenario,
  crashScenario,
  slowScenario,
  burstScenario,
  intentScenario,
  pixelScenario,
  workloadScenario,
  elicitationScenario,
  longPlanScenario,
  declarePlanScenario,
  subagentsScenario,
  backgroundScenario,
  planModeScenario,
  signinScenario,
  teamScenario,
  compactScenario,
  steerScenario,
];

/** The text of the prompt's first text block. */
export function promptText(prompt: readonly Block[]): string {
  const first = prompt.find((b) => b.type === 'text' && typeof b.text === 'string');
  return first ? (first.text as string) : '';
}

export function pickScenario(prompt: readonly Block[]): { scenario: Scenario; args: string } {
  const text = promptText(prompt).trim();
  const match = /^\/([A-Za-z][\w-]*)(?:\s+([\s\S]*))?$/.exec(text);
  const scenario = match ? SCENARIOS.find((s) => s.name === match[1].toLowerCase()) : undefined;
  // A review the client sent (links with line ranges, each with its text) runs the review scenario.
  if (!scenario && reviewAsks(prompt).length) return { scenario: reviewScenario, args: text };
  if (!match || !scenario) return { scenario: defaultTurn, args: text };
  return { scenario, args: (match[2] ?? '').trim() };
}
