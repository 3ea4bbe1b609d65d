// The default turn: a scripted piece of work that shows every kind of plan and update. Two item
// plans (`impl`, `tests`) progress side by side; a Markdown plan (`notes`), a file plan (`spec`,
// backed by <cwd>/.acp-demo/PLAN.md), a custom plan (`custom`) and a throwaway plan (`scratch`,
// removed again) come and go; a read and a permission-gated edit run as tool calls, then (when the
// edit was allowed) a second step writes a test file. Both writes go through the client's
// fs/write_text_file when it offers it (v1), else to the disk; each tool call names its plan entry
// in `_meta["acp-plans/planEntry"]` (docs/API.md), since impl and tests run side by side.

import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Block, ToolContent, ToolPatch } from '../model';
import type { Turn } from '../turn';
import { editHello, HELLO_FILE, HELLO_TEST_FILE, helloTest, notesMarkdown, PLAN_FILE, readHello, writeFile, writePlanFile } from './demoFiles';
import { fenced, ItemPlan, PERMISSION_OPTIONS, type Scenario } from './scenario';

const DOCS_LINK = 'https://agentclientprotocol.com/protocol/agent-plan';

function titleOf(prompt: Block[]): string {
  const text = prompt.find((b) => b.type === 'text')?.text;
  const line = typeof text === 'string' ? text.trim().split('\n')[0] : '';
  if (!line) return 'Demo session';
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}

function sendSpec(turn: Turn, done: boolean): void {
  const uri = writePlanFile(turn.cwd, done);
  if (uri) turn.emit({ kind: 'plan', plan: { type: 'file', planId: 'spec', uri } });
  else turn.log(`could not write ${PLAN_FILE} in ${turn.cwd}; the file plan is skipped`);
}

async function read(turn: Turn): Promise<{ file: string; text: string }> {
  const { file, text } = readHello(turn.cwd);
  const toolCallId = turn.id('call_read');
  turn.tool({ toolCallId, title: `Read ${HELLO_FILE}`, kind: 'read', status: 'pending', locations: [{ path: file, line: 1 }], rawInput: { path: file } });
  await turn.pace(0.5);
  turn.tool({ toolCallId, status: 'in_progress' });
  turn.emit({ kind: 'toolChunk', toolCallId, content: { type: 'text', text: fenced(text, 'ts') } });
  await turn.pace(0.5);
  turn.tool({ toolCallId, status: 'completed', rawOutput: { lines: text.split('\n').length - 1 } });
  return { file, text };
}

/** Which plan entry a tool call works for (the ACP Plans convention; other clients ignore it). */
function entryMeta(planId: string, index: number): { 'acp-plans/planEntry': { planId: string; index: number } } {
  return { 'acp-plans/planEntry': { planId, index } };
}

/** Writes through the client when it offers fs/write_text_file (v1), else to the disk itself. */
async function save(turn: Turn, file: string, text: string): Promise<void> {
  if (turn.version === 1 && turn.services.writeTextFile) await turn.clientRequest('fs/write_text_file', { path: file, content: text });
  else writeFile(file, text);
}

/** Writes the unit test of farewell() (a new file) for the tests plan's first step. */
async function writeTest(turn: Turn): Promise<void> {
  const file = path.join(turn.cwd, HELLO_TEST_FILE);
  const newText = helloTest();
  const toolCallId = turn.id('call_test');
  const diff: ToolContent = { type: 'diff', path: file, patchPath: HELLO_TEST_FILE, oldText: null, newText };
  turn.tool({
    toolCallId,
    title: `Write ${HELLO_TEST_FILE}`,
    kind: 'edit',
    status: 'in_progress',
    content: [diff],
    locations: [{ path: file }],
    rawInput: { path: file },
    _meta: entryMeta('tests', 0),
  });
  try {
    await save(turn, file, newText);
  } catch (err) {
    turn.tool({ toolCallId, status: 'failed', content: [diff, { type: 'text', text: `Could not write the file: ${String(err)}` }] });
    return;
  }
  turn.tool({ toolCallId, status: 'completed' });
}

/** Proposes the edit, asks permission, applies it if allowed. Returns whether the file changed. */
async function edit(turn: Turn, file: string, oldText: string, onAllowed: () => void): Promise<boolean> {
  const newText = editHello(oldText);
  const diff: ToolContent = { type: 'diff', path: file, patchPath: path.relative(turn.cwd, file), oldText, newText };
  const call: ToolPatch = {
    toolCallId: turn.id('call_edit'),
    title: `Edit ${HELLO_FILE}`,
    kind: 'edit',
    status: 'pending',
    content: [diff],
    locations: [{ path: file }],
    rawInput: { path: file },
    _meta: entryMeta('impl', 2),
  };
  turn.tool(call);
  await turn.pace(0.5);
  const outcome = await turn.requestPermission({
    title: `Allow the Demo Agent to edit ${HELLO_FILE}?`,
    description: 'It adds a farewell() function and bumps GREETING_VERSION.',
    toolCall: call,
    options: [...PERMISSION_OPTIONS],
  });
  const allowed = outcome.outcome === 'selected' && (outcome.optionId === 'allow_once' || outcome.optionId === 'allow_always');
  if (!allowed) {
    const why = outcome.outcome === 'selected' ? 'Permission denied' : 'No permission';
    turn.tool({ toolCallId: call.toolCallId, status: 'failed', content: [diff, { type: 'text', text: `${why}: the edit was not applied.` }] });
    return false;
  }
  onAllowed();
  turn.tool({ toolCallId: call.toolCallId, status: 'in_progress' });
  await turn.pace(0.5);
  try {
    await save(turn, file, newText);
  } catch (err) {
    turn.tool({ toolCallId: call.toolCallId, status: 'failed', content: [diff, { type: 'text', text: `Could not write the file: ${String(err)}` }] });
    return false;
  }
  turn.tool({ toolCallId: call.toolCallId, status: 'completed' });
  return true;
}

function summary(edited: boolean, specUri: string): string[] {
  const first = edited
    ? `I added a \`farewell()\` helper next to \`greet()\` in \`${HELLO_FILE}\`.\n\n`
    : `You declined the edit, so \`${HELLO_FILE}\` is unchanged.\n\n`;
  return [
    first,
    'What this turn did:\n\n',
    `- read \`${HELLO_FILE}\` and proposed a diff\n- kept two item plans (\`impl\`, \`tests\`) moving side by side\n`,
    `- wrote the spec to [\`${PLAN_FILE}\`](${specUri})\n\n`,
    `Plans are described in the [Agent Client Protocol docs](${DOCS_LINK}).`,
  ];
}

/** The turn's plans at its start: two item plans side by side, a throwaway one and the notes. */
function openPlans(turn: Turn): { impl: ItemPlan; tests: ItemPlan; scratch: ItemPlan } {
  const impl = new ItemPlan(turn, 'impl', [
    [`Read ${HELLO_FILE}`, 'high'],
    ['Outline the change', 'medium'],
    ['Add a farewell() function', 'high'],
    ['Update the spec plan file', 'medium'],
    ['Summarize the change', 'low'],
  ]);
  const tests = new ItemPlan(turn, 'tests', [
    ['Write a unit test for farewell()', 'high'],
    ['Run the test suite', 'medium'],
    ['Check an empty name', 'low'],
  ]);
  const scratch = new ItemPlan(turn, 'scratch', [[`Check that ${path.dirname(HELLO_FILE)} is writable`, 'low']]);
  impl.send();
  tests.send();
  scratch.send();
  turn.emit({ kind: 'plan', plan: { type: 'markdown', planId: 'notes', content: notesMarkdown('start', false) } });
  return { impl, tests, scratch };
}

/** The turn's last step: the summary streamed as a message, the plans completed, the usage reported. */
async function summarize(turn: Turn, edited: boolean, impl: ItemPlan, tests: ItemPlan): Promise<void> {
  impl.set([3, 'completed'], [4, 'in_progress']);
  const specUri = pathToFileURL(path.join(turn.cwd, PLAN_FILE)).href;
  const messageId = turn.id('msg');
  for (const chunk of summary(edited, specUri)) {
    turn.emit({ kind: 'message', role: 'agent', messageId, blocks: [{ type: 'text', text: chunk }] });
    await turn.pace(0.25);
  }
  tests.set([2, 'completed']);
  impl.set([4, 'completed']);
  turn.emit({ kind: 'usage', used: Math.min(200_000, 1_800 + turn.session.data.counter * 137), size: 200_000, cost: { amount: 0.0042, currency: 'USD' } });
}

export const defaultTurn: Scenario = {
  name: '',
  description: 'A scripted turn with several plans, tool calls and a permission request',
  async run(turn, _args, prompt) {
    const thoughts = turn.session.data.config.show_thoughts !== false;
    const startMode = turn.session.data.modeId;
    turn.emit({ kind: 'info', title: titleOf(prompt), updatedAt: new Date().toISOString() });
    if (turn.version === 1) turn.emit({ kind: 'mode', modeId: 'plan' });
    if (thoughts) turn.say(['Let me look at the greeting module first, ', 'then plan the work in two tracks: the change and its tests.'], 'thought');
    await turn.pace();

    const { impl, tests, scratch } = openPlans(turn);
    await turn.pace();
    if (turn.version === 1) turn.emit({ kind: 'mode', modeId: startMode });

    impl.set([0, 'in_progress']);
    scratch.set([0, 'in_progress']);
    const { file, text } = await read(turn);
    impl.set([0, 'completed'], [1, 'in_progress']);
    await turn.pace();

    tests.set([0, 'in_progress']);
    sendSpec(turn, false);
    turn.emit({
      kind: 'plan',
      plan: {
        type: '_custom',
        planId: 'custom',
        title: 'Review board',
        columns: { todo: ['Review farewell()'], doing: ['Write tests'], done: ['Read module'] },
      },
    });
    await turn.pace();

    impl.set([1, 'completed'], [2, '_blocked']);
    const edited = await edit(turn, file, text, () => impl.set([2, 'in_progress']));
    impl.set([2, edited ? 'completed' : 'cancelled']);
    await turn.pace();
    if (edited) await writeTest(turn);

    tests.set([0, 'completed'], [1, 'in_progress']);
    turn.emit({ kind: 'plan', plan: { type: 'markdown', planId: 'notes', content: notesMarkdown('end', edited) } });
    turn.emit({ kind: 'planRemoved', planId: 'scratch' });
    await turn.pace();

    impl.set([3, 'in_progress']);
    sendSpec(turn, edited);
    tests.set([1, 'completed'], [2, 'in_progress']);
    await turn.pace();

    await summarize(turn, edited, impl, tests);
  },
};
