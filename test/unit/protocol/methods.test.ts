// Each version's method table (src/protocol/common/methods.ts, derived in v1/methods.ts and
// v2/methods.ts) against the official files of that version (test/fixtures/schemas, see
// SOURCE.md there): every method of its meta.json is in the table and nothing else, with the
// meta.json's wire name and side (agentMethods, clientMethods, protocolMethods), and answered or
// not as the schema's `x-method` definitions say (a …Request or a …Notification). v2's cancels
// of one background item come from the later draft (later-draft/, SDK 2.4.0), which has no meta.json.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { methodSpecs, type MethodSide } from '../../../src/protocol/common/methods';
import { V1_METHODS } from '../../../src/protocol/v1/methods';
import { V2_METHODS } from '../../../src/protocol/v2/methods';
import { schemasDir } from './outbound';

interface Wire {
  name: string;
  handledBy: MethodSide;
  kind: 'request' | 'notification';
}

const SIDES: Record<string, MethodSide> = { agentMethods: 'agent', clientMethods: 'client', protocolMethods: 'both' };
const X_SIDES: Record<string, MethodSide> = { agent: 'agent', client: 'client', protocol: 'both' };

const read = (file: string): Record<string, Record<string, unknown>> =>
  JSON.parse(readFileSync(path.join(schemasDir(), file), 'utf8')) as Record<string, Record<string, unknown>>;

/** Request or notification, by the schema's definitions that carry the method (`x-method`). */
function kindsOf(schemaFile: string): Map<string, { kind: Wire['kind']; side: MethodSide }> {
  const kinds = new Map<string, { kind: Wire['kind']; side: MethodSide }>();
  for (const [def, body] of Object.entries(read(schemaFile).$defs!)) {
    const { 'x-method': method, 'x-side': side } = body as { 'x-method'?: string; 'x-side'?: string };
    if (!method || def.endsWith('Response')) continue;
    const kind = def.endsWith('Request') ? 'request' : def.endsWith('Notification') ? 'notification' : undefined;
    assert.ok(kind, `${schemaFile}: ${def} is neither a request nor a notification`);
    kinds.set(method, { kind, side: X_SIDES[side!]! });
  }
  return kinds;
}

/** Every method of a version's meta.json, with its side from there and its kind from the schema. */
function official(version: 'v1' | 'v2'): Wire[] {
  const kinds = kindsOf(`${version}.schema.json`);
  const out: Wire[] = [];
  for (const [list, side] of Object.entries(SIDES))
    for (const name of Object.values(read(`${version}.meta.json`)[list] as Record<string, string>)) {
      assert.ok(kinds.has(name), `${version}.schema.json defines ${name}`);
      out.push({ name, handledBy: side, kind: kinds.get(name)!.kind });
    }
  return out;
}

/** Methods of the later v2 draft (SDK 2.4.0) this client speaks; the draft has no meta.json. */
function laterDraft(names: string[]): Wire[] {
  const kinds = kindsOf('later-draft/v2.unstable.schema.json');
  return names.map((name) => {
    const k = kinds.get(name);
    assert.ok(k, `the later draft defines ${name}`);
    return { name, handledBy: k.side, kind: k.kind };
  });
}

const ours = (table: Parameters<typeof methodSpecs>[0]): Wire[] => methodSpecs(table).map(({ name, handledBy, kind }) => ({ name, handledBy, kind }));
const sorted = (w: Wire[]): Wire[] => [...w].sort((a, b) => a.name.localeCompare(b.name));

describe('method tables (one source, each version against its meta.json and schema)', () => {
  it('v1: exactly the methods of v1.meta.json, each with its side and kind', () => {
    assert.deepEqual(sorted(ours(V1_METHODS)), sorted(official('v1')));
  });

  it('v2: exactly the methods of v2.meta.json, plus the later draft cancels and session management, each with its side and kind', () => {
    const draft = ['terminal/cancel', 'tool_call/cancel', 'session/fork', 'session/archive', 'session/unarchive', 'session/set_title', 'session/status'];
    assert.deepEqual(sorted(ours(V2_METHODS)), sorted([...official('v2'), ...laterDraft(draft)]));
  });
});
