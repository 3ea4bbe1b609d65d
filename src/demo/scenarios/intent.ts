// `/intent` (v2): declares an intent plan (`_intent`, docs/INTENT.md) signed with the demo's own
// Ed25519 key, then makes two tool calls the plan covers and asks permission for one it does not.
//   1. The key (kid `demo-1`) is made once per agent process; its public JWKS is written to
//      `<cwd>/.acp-demo/jwks.json` before every plan, so pointing `acp.intent.jwks` at that file
//      makes the plan verify.
//   2. plan_update `_intent` `intent`: read_file (path glob `src/**`), edit_file (path eq
//      `src/greeting.ts`, required), run_tests (maxCalls 2); token lifetime 60 min.
//   3. read_file {path:"src/greeting.ts"} and run_tests {} (each completed, simulated).
//   4. edit_file {path:"package.json"} announced through a permission request: outside the plan.
//      Allowed: completed (simulated, nothing is written); otherwise failed. The outcome is echoed.
//   5. The turn ends without the required edit_file step having run.
// Every tool call carries its tool's name in `_meta.toolName` (the v2 tool call has no name field).
// v1 cannot carry a custom plan type: one message says so.

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateSigningKey, makeJwks, type SigningKey } from '../../intent/keys';
import { signIntentToken } from '../../intent/sign';
import type { JsonObject, ToolPatch } from '../model';
import type { Turn } from '../turn';
import { ALL_PERMISSION_OPTIONS, report } from './permission';
import { DEMO_DIR } from './demoFiles';
import { type Scenario } from './scenario';

export const INTENT_KID = 'demo-1';
export const INTENT_PLAN_ID = 'intent';
export const JWKS_FILE = `${DEMO_DIR}/jwks.json`;
export const INTENT_LIFETIME_SECONDS = 60 * 60;

/** The plan as sent (and signed). */
export const INTENT_PLAN = {
  version: 1,
  goal: 'Add a farewell() helper next to greet() in src/greeting.ts',
  user: 'ada@example.com',
  steps: [
    { tool: 'read_file', args: { path: { glob: 'src/**' } } },
    { tool: 'edit_file', args: { path: { eq: 'src/greeting.ts' } }, required: true },
    { tool: 'run_tests', maxCalls: 2 },
  ],
};

let key: SigningKey | undefined;

/** The signing key of this agent process (made on first use). */
export function demoSigningKey(): SigningKey {
  key ??= generateSigningKey(INTENT_KID);
  return key;
}

/** Writes the public key set; returns the file, or undefined when it cannot be written. */
export function writeJwks(cwd: string, k: SigningKey): string | undefined {
  const file = path.join(cwd, JWKS_FILE);
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(makeJwks([k.publicJwk]), null, 2)}\n`);
    return file;
  } catch {
    return undefined;
  }
}

function call(turn: Turn, tool: string, title: string, kind: ToolPatch['kind'], rawInput: JsonObject): ToolPatch {
  return { toolCallId: turn.id('call_intent'), title, kind, status: 'pending', rawInput, _meta: { toolName: tool } };
}

/** A tool call the plan covers: pending, then completed with a simulated result. */
async function run(turn: Turn, patch: ToolPatch, result: string): Promise<void> {
  turn.tool(patch);
  await turn.pace(0.5);
  turn.tool({ toolCallId: patch.toolCallId, status: 'completed', content: [{ type: 'text', text: result }] });
}

export const intentScenario: Scenario = {
  name: 'intent',
  description: 'Declare a signed intent plan, then make one call outside it',
  async run(turn) {
    if (turn.version === 1) {
      turn.say('intent: intent plans need ACP v2 (a v1 plan cannot have the custom type `_intent`).');
      return;
    }
    const k = demoSigningKey();
    const file = writeJwks(turn.cwd, k);
    const { token } = await signIntentToken(INTENT_PLAN, k, { lifetimeSeconds: INTENT_LIFETIME_SECONDS });
    turn.checkpoint();
    turn.say(
      file
        ? `intent: the plan is signed with key \`${INTENT_KID}\`; its public key is in \`${file}\` (point \`acp.intent.jwks\` at it to verify the plan).`
        : `intent: the plan is signed with key \`${INTENT_KID}\`; the public key could not be written to \`${JWKS_FILE}\`.`,
    );
    turn.emit({ kind: 'plan', plan: { type: '_intent', planId: INTENT_PLAN_ID, plan: INTENT_PLAN, token } });
    await turn.pace();

    await run(
      turn,
      call(turn, 'read_file', 'Read src/greeting.ts', 'read', { path: 'src/greeting.ts' }),
      'export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n(simulated)',
    );
    await turn.pace();
    await run(turn, call(turn, 'run_tests', 'Run the tests', 'execute', {}), '3 passing (simulated)');
    await turn.pace();

    const edit = call(turn, 'edit_file', 'Edit package.json', 'edit', { path: 'package.json', edit: 'add a "farewell" script' });
    const outcome = await turn.requestPermission({
      title: 'Allow the Demo Agent to edit package.json?',
      description: 'Adds a "farewell" script. (The demo does not change the file.)',
      toolCall: edit,
      options: [...ALL_PERMISSION_OPTIONS],
    });
    report(turn, outcome, edit.toolCallId);
    await turn.pace();
    turn.say('intent: stopping here; the required step edit_file (src/greeting.ts) did not run.');
  },
};
