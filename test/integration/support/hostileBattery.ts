// The set-up and clean-up of the hostile battery (test/integration/hostile.test.ts): its two
// hostile agents (test/agents/hostileAgent.ts; A speaks v2, B v1) with secrets in their arguments
// and environment, added to `acp.agents`; which requests the "user" clicks (every other one is
// left unanswered); and the clean-up after the battery (agents stopped; their rules, sessions,
// transcripts and plans removed; settings restored; planted files removed).
import * as path from 'path';
import * as vscode from 'vscode';
import { sessionKey, type PendingPermission } from '../../../src/state/sessionStore';
import { STDERR_SECRETS } from '../../agents/hostile/clientPhases';
import { withSetting } from './demo';
import { waitFor, type Internals } from './ext';
import type { Click, Plant } from './hostile';

const A_NAME = 'Hostile A (v2)';
const B_NAME = 'Hostile B (v1)';
export const A = `agent:${A_NAME}`;
export const B = `agent:${B_NAME}`;
const SECRET_ARG = 'sk-hostile-arg-3c5d7e9f1a2b4c6d';
const SECRET_ENV = 'hostile-env-secret-8e6f4a2c0b1d';
/** What must never reach the ACP log or trace: the agents' secret argument, environment and stderr. */
export const SECRETS = [SECRET_ARG, SECRET_ENV, ...Object.values(STDERR_SECRETS)];
/** Files in the workspace an agent asks to write (they would run later): asked, never written. */
export const WRITE_TARGETS = ['.git/hooks/pre-commit', '.vscode/tasks.json', '.github/workflows/ci.yml'];

/**
 * Adds agents A and B (running `agentJs`, recording into `files.results`) to `acp.agents` after
 * the ones configured, pushes the setting's restorer onto `restores` and waits until the
 * extension knows both agents.
 */
export async function addHostileAgents(internals: Internals, files: Plant, agentJs: string, restores: (() => Promise<void>)[]): Promise<void> {
  const entry = (name: string, v: 'v1' | 'v2', prefix: string) => ({
    name,
    command: process.execPath,
    protocol: v === 'v1' ? '1' : '2',
    args: [agentJs, v, path.join(files.results, `${prefix}.json`), prefix, '--api-key', SECRET_ARG],
    env: { HOSTILE_API_KEY: SECRET_ENV },
  });
  const previous = vscode.workspace.getConfiguration('acp').inspect<unknown[]>('agents')?.globalValue ?? [];
  const changed = waitFor(
    internals.agents.onDidChangeDefinitions,
    () => !!internals.agents.get(A) && !!internals.agents.get(B),
    10_000,
    'the hostile agents in acp.agents',
  );
  restores.push(await withSetting('agents', [...previous, entry(A_NAME, 'v2', 'a'), entry(B_NAME, 'v1', 'b')]));
  await changed;
}

/** The user's clicks (User.policy): only these requests are answered by the user. */
export function hostileClicks(p: PendingPermission): Click {
  const t = p.request.title;
  // The user clicks the option shown as "Always allow — 'Reject' ⚠", and even picks "Exactly this": no rule may come of it.
  if (t.includes('[probe consent.reject-named-allow-always]')) return { index: 1, rule: 'narrow' };
  if (t.includes('[probe consent.two-ok]')) return { index: 1 };
  if (t.includes('[probe consent.same-id]')) return { index: 1 };
  if (t.includes('[probe rules.narrow]')) return { index: 1, rule: 'narrow' };
  if (p.agentId === B && t.includes('hostile-approved')) return { index: 0 };
  return undefined;
}

/**
 * Undoes what the battery left: stops A and B, removes their rules, runs `restores` (newest
 * first), removes their sessions, transcripts and plans (and transcripts of invented sessions),
 * and the planted files. Every step runs; returns the ones that failed.
 */
export async function cleanUpBattery(internals: Internals | undefined, restores: (() => Promise<void>)[], files: Plant | undefined): Promise<string[]> {
  const problems: string[] = [];
  const step = async (what: string, f: () => unknown): Promise<void> => {
    try {
      await f();
    } catch (err) {
      problems.push(`${what}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  for (const id of [A, B])
    if (internals?.agents.get(id) && internals.agents.get(id)!.status !== 'stopped')
      await step(`stop ${id}`, () => vscode.commands.executeCommand('acp.stopAgent', id));
  for (const r of internals?.broker.rules.filter((x) => x.agentId === A || x.agentId === B) ?? [])
    await step('remove rule', () => internals!.broker.removeRule(r));
  for (const r of restores.reverse()) await step('restore settings', r);
  if (internals) {
    for (const id of [A, B]) {
      for (const s of internals.store.sessions(id)) {
        internals.transcript.removeSession(sessionKey(id, s.sessionId));
        internals.store.removeSession(id, s.sessionId);
      }
      internals.plans.clearAgent(id);
      internals.store.removeAgent(id);
    }
    for (const sid of internals.transcript.sessionIds().filter((s) => s.includes('invented-'))) internals.transcript.removeSession(sid);
  }
  files?.cleanup();
  return problems;
}
