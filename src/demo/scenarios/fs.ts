// `/fs <relative path>`: reads a file and echoes it, then writes `<path>.out` with the content in
// upper case. v1: through the client (`fs/read_text_file` returns unsaved editor content,
// `fs/write_text_file`) when it advertised `fs`; otherwise (and in v2, which has no client file
// system) the agent reads and writes the disk itself and says so.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Turn } from '../turn';
import { writeFile } from './demoFiles';
import { fenced, type Scenario } from './scenario';

export function fsTransform(text: string): string {
  return text.toUpperCase();
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

async function readText(turn: Turn, file: string): Promise<{ text: string; via: string }> {
  if (turn.version === 1 && turn.services.readTextFile) {
    const result = (await turn.clientRequest('fs/read_text_file', { path: file })) as { content?: unknown } | null;
    if (typeof result?.content !== 'string') throw new Error('the client answered without `content`');
    return { text: result.content, via: 'the client' };
  }
  return { text: readFileSync(file, 'utf8'), via: 'the disk' };
}

async function writeText(turn: Turn, file: string, text: string): Promise<string> {
  if (turn.version === 1 && turn.services.writeTextFile) {
    await turn.clientRequest('fs/write_text_file', { path: file, content: text });
    return 'the client';
  }
  writeFile(file, text);
  return 'the disk';
}

export const fsScenario: Scenario = {
  name: 'fs',
  description: 'Read a file (v1: through the client) and write an upper-case copy to <path>.out',
  hint: 'relative path of a file',
  async run(turn, args) {
    if (!args) {
      turn.say('Usage: `/fs <relative path>`');
      return;
    }
    const file = path.resolve(turn.cwd, args);
    const rel = path.relative(turn.cwd, file);
    if (rel.startsWith('..') || path.isAbsolute(rel)) {
      turn.say(`fs: \`${args}\` is outside the session folder.`);
      return;
    }
    const readId = turn.id('call_read');
    turn.tool({ toolCallId: readId, title: `Read ${rel}`, kind: 'read', status: 'in_progress', locations: [{ path: file }], rawInput: { path: file } });
    let read: { text: string; via: string };
    try {
      read = await readText(turn, file);
    } catch (err) {
      turn.checkpoint();
      turn.tool({ toolCallId: readId, status: 'failed', content: [{ type: 'text', text: errorText(err) }] });
      turn.say(`fs: could not read \`${rel}\`: ${errorText(err)}`);
      return;
    }
    turn.checkpoint();
    turn.tool({ toolCallId: readId, status: 'completed' });
    turn.say(`Contents of \`${rel}\` (${read.text.length} characters, read through ${read.via}):\n\n${fenced(read.text)}\n`);
    await turn.pace();

    const out = `${file}.out`;
    const outRel = `${rel}.out`;
    const newText = fsTransform(read.text);
    const writeId = turn.id('call_write');
    turn.tool({
      toolCallId: writeId,
      title: `Write ${outRel}`,
      kind: 'edit',
      status: 'in_progress',
      locations: [{ path: out }],
      content: [{ type: 'diff', path: out, patchPath: outRel, oldText: null, newText }],
      rawInput: { path: out },
    });
    let via: string;
    try {
      via = await writeText(turn, out, newText);
    } catch (err) {
      turn.checkpoint();
      turn.tool({ toolCallId: writeId, status: 'failed' });
      turn.say(`fs: could not write \`${outRel}\`: ${errorText(err)}`);
      return;
    }
    turn.checkpoint();
    turn.tool({ toolCallId: writeId, status: 'completed' });
    turn.say(`Wrote \`${outRel}\` (the content in upper case) through ${via}.`);
  },
};
