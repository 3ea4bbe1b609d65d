// `/team`: a small piece of work in the session's folder, for a team of agents each in its own git
// worktree. An items plan of three steps; it writes `team/<session>.txt` (a new file of its own)
// and puts its session id on the first line of `shared.txt` (the line every member changes, so
// applying two members' work conflicts there). Writes go through the client's fs/write_text_file
// when it offers it (v1: the client's path policy decides), else to the disk.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Turn } from '../turn';
import { writeFile } from './demoFiles';
import { ItemPlan, type Scenario } from './scenario';

export const TEAM_SHARED_FILE = 'shared.txt';

async function save(turn: Turn, file: string, text: string): Promise<void> {
  if (turn.version === 1 && turn.services.writeTextFile) await turn.clientRequest('fs/write_text_file', { path: file, content: text });
  else writeFile(file, text);
}

function readOr(file: string, fallback: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}

async function write(turn: Turn, file: string, text: string, title: string): Promise<boolean> {
  const toolCallId = turn.id('call_team');
  turn.tool({ toolCallId, title, kind: 'edit', status: 'in_progress', locations: [{ path: file }], rawInput: { path: file } });
  try {
    await save(turn, file, text);
  } catch (err) {
    turn.tool({ toolCallId, status: 'failed', content: [{ type: 'text', text: `Could not write ${file}: ${String(err)}` }] });
    return false;
  }
  turn.tool({ toolCallId, status: 'completed' });
  return true;
}

export const teamScenario: Scenario = {
  name: 'team',
  description: 'Write team/<session>.txt and sign the first line of shared.txt (for worktree teams)',
  async run(turn) {
    const id = turn.session.sessionId;
    const plan = new ItemPlan(turn, 'team', [
      ['Write a note of this session', 'high'],
      ['Sign the shared file', 'medium'],
      ['Report what changed', 'low'],
    ]);
    plan.set([0, 'in_progress']);
    await turn.pace();
    const note = path.join(turn.cwd, 'team', `${id}.txt`);
    plan.set([0, (await write(turn, note, `Written by ${id}\n`, `Write team/${id}.txt`)) ? 'completed' : 'pending'], [1, 'in_progress']);
    await turn.pace();
    const shared = path.join(turn.cwd, TEAM_SHARED_FILE);
    const rest = readOr(shared, '\n').split('\n').slice(1).join('\n');
    const signed = await write(turn, shared, `signed by ${id}\n${rest}`, `Sign ${TEAM_SHARED_FILE}`);
    plan.set([1, signed ? 'completed' : 'pending'], [2, 'in_progress']);
    turn.say(`Wrote \`team/${id}.txt\` and signed \`${TEAM_SHARED_FILE}\` in ${turn.cwd}.`);
    plan.set([2, 'completed']);
  },
};
