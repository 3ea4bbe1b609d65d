// `/declare`: the intent plan declared through the seed's built-in `declare_plan` tool (not our
// `_intent` plan type), then calls that name no tool (docs/INTENT.md).
//   1. tool call `declare_plan` (`_meta.toolName`), its input the plan (read_file under src/,
//      run_tests), completed with the guard's token in `rawOutput.token` (signed with the demo key,
//      kid `demo-1`, public key in `.acp-demo/jwks.json`; claims agent, pol/polv/polh, role, groups);
//   2. a call with no tool name, kind `read`, title "Reading src/greeting.ts": its tool is inferred
//      (read_file) and it is in the plan;
//   3. a call with no tool name, kind `fetch`, title "Fetching the release notes": it can't be
//      matched to a step, and says why.
import { signIntentToken } from '../../intent/sign';
import type { Turn } from '../turn';
import { demoSigningKey, writeJwks } from './intent';
import type { Scenario } from './scenario';

export const DECLARED_PLAN = {
  version: 1,
  goal: 'Check the greeting and run the tests',
  user: 'ada@example.com',
  steps: [
    { tool: 'read_file', args: { path: { glob: 'src/**' } } },
    { tool: 'run_tests', maxCalls: 2 },
  ],
};

export const DECLARED_CLAIMS = { agent: 'demo-agent', pol: 'read-and-test', polv: 3, role: 'developer', groups: ['web', 'oncall'] };

async function call(turn: Turn, patch: Parameters<Turn['tool']>[0], result: string): Promise<void> {
  turn.tool(patch);
  await turn.pace(0.5);
  turn.tool({ toolCallId: patch.toolCallId, status: 'completed', content: [{ type: 'text', text: result }] });
}

export const declarePlanScenario: Scenario = {
  name: 'declare',
  description: 'Declare an intent plan through the declare_plan tool, then make calls that name no tool',
  async run(turn) {
    const k = demoSigningKey();
    writeJwks(turn.cwd, k);
    const { token } = await signIntentToken(DECLARED_PLAN, k, { lifetimeSeconds: 60 * 60, ...DECLARED_CLAIMS });
    const id = turn.id('call_declare');
    turn.tool({ toolCallId: id, title: 'declare_plan', kind: 'other', status: 'pending', rawInput: DECLARED_PLAN, _meta: { toolName: 'declare_plan' } });
    await turn.pace(0.5);
    turn.tool({ toolCallId: id, status: 'completed', rawOutput: { token } });
    await turn.pace();
    await call(
      turn,
      { toolCallId: turn.id('call_read'), title: 'Reading src/greeting.ts', kind: 'read', status: 'pending', rawInput: { path: 'src/greeting.ts' } },
      'export function greet() {} (simulated)',
    );
    await turn.pace();
    await call(
      turn,
      {
        toolCallId: turn.id('call_fetch'),
        title: 'Fetching the release notes',
        kind: 'fetch',
        status: 'pending',
        rawInput: { url: 'https://example.com/notes' },
      },
      '(simulated)',
    );
    turn.say('declare: plan declared through declare_plan; one call inferred as read_file, one could not be matched.');
  },
};
