// Validates what the Demo Agent sends against the official ACP JSON schemas
// (test/fixtures/schemas, see SOURCE.md there). The type for each method comes from the schema's
// own `x-method` / `x-side` annotations: agent-sent requests and notifications are the defs the
// client side handles, agent responses the defs the agent side handles.

import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SCHEMA_DIR } from './paths';

export type SchemaName = 'v1' | 'v1.unstable' | 'v2' | 'v2.unstable';

export interface Message {
  jsonrpc?: unknown;
  id?: string | number | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: unknown;
}

interface Kinds {
  requests: Map<string, string>;
  notifications: Map<string, string>;
  responses: Map<string, string>;
}

const INT_RANGES: Record<string, [number, number]> = {
  uint16: [0, 65535],
  uint32: [0, 2 ** 32 - 1],
  uint64: [0, Number.MAX_SAFE_INTEGER],
  int32: [-(2 ** 31), 2 ** 31 - 1],
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

function makeAjv(): Ajv2020 {
  // strict: false — the schemas carry annotations (x-*, discriminator) ajv does not know.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  ajv.addFormat('uri', /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/);
  ajv.addFormat('date-time', {
    type: 'string',
    validate: (s: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/i.test(s) && !Number.isNaN(Date.parse(s)),
  });
  ajv.addFormat('regex', {
    type: 'string',
    validate: (s: string) => {
      try {
        new RegExp(s);
        return true;
      } catch {
        return false;
      }
    },
  });
  for (const [name, [min, max]] of Object.entries(INT_RANGES)) {
    ajv.addFormat(name, { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= min && n <= max });
  }
  ajv.addFormat('double', { type: 'number', validate: (n: number) => Number.isFinite(n) });
  return ajv;
}

function kindsOf(defs: Record<string, { 'x-method'?: string; 'x-side'?: string }>): Kinds {
  const kinds: Kinds = { requests: new Map(), notifications: new Map(), responses: new Map() };
  for (const [name, def] of Object.entries(defs)) {
    const method = def['x-method'];
    const side = def['x-side'];
    if (!method || !side) continue;
    const toClient = side === 'client' || side === 'both';
    const toAgent = side === 'agent' || side === 'both';
    if (toClient && name.endsWith('Request')) kinds.requests.set(method, name);
    if (toClient && name.endsWith('Notification')) kinds.notifications.set(method, name);
    if (toAgent && name.endsWith('Response')) kinds.responses.set(method, name);
  }
  return kinds;
}

export class SchemaCheck {
  private readonly ajv = makeAjv();
  private readonly kinds = new Map<SchemaName, Kinds>();
  private readonly cache = new Map<string, ValidateFunction>();

  /** `dir`: the schema set (default: the spec snapshot; `later-draft/` for the newer one). */
  constructor(names: readonly SchemaName[] = ['v1', 'v1.unstable', 'v2', 'v2.unstable'], dir = SCHEMA_DIR) {
    for (const name of names) {
      const schema = JSON.parse(readFileSync(path.join(dir, `${name}.schema.json`), 'utf8')) as { $defs: Record<string, object> };
      this.ajv.addSchema(schema, name);
      this.kinds.set(name, kindsOf(schema.$defs as Record<string, { 'x-method'?: string }>));
    }
  }

  /**
   * Problems of one agent-sent message under `schema` (empty: valid). `requestMethod` names the
   * method of the client request a response answers.
   */
  check(schema: SchemaName, message: Message, requestMethod?: string): string[] {
    const kinds = this.kinds.get(schema);
    if (!kinds) throw new Error(`schema ${schema} not loaded`);
    const problems = this.run(schema, '', message).map((p) => `envelope: ${p}`);
    let def: string | undefined;
    let body: unknown;
    if (typeof message.method === 'string') {
      def = (message.id !== undefined ? kinds.requests : kinds.notifications).get(message.method);
      body = message.params;
      if (!def) return [...problems, `${schema} has no agent-sent ${message.id !== undefined ? 'request' : 'notification'} "${message.method}"`];
    } else if (message.error !== undefined) {
      def = 'Error';
      body = message.error;
    } else {
      def = requestMethod ? kinds.responses.get(requestMethod) : undefined;
      body = message.result;
      if (!def) return [...problems, `${schema} has no response type for "${String(requestMethod)}"`];
    }
    return [...problems, ...this.run(schema, `/$defs/${def}`, body).map((p) => `${def}: ${p}`)];
  }

  private run(schema: SchemaName, pointer: string, value: unknown): string[] {
    const key = `${schema}#${pointer}`;
    let validate = this.cache.get(key);
    if (!validate) {
      const found = this.ajv.getSchema(key);
      if (!found) throw new Error(`no schema at ${key}`);
      validate = found;
      this.cache.set(key, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).slice(0, 8).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
  }
}
