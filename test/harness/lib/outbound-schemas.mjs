// Validates the messages the client sends against the official ACP JSON schemas
// (test/fixtures/schemas, see SOURCE.md there) with ajv. Shared by the protocol unit tests
// (test/unit/protocol/outbound.ts) and the recording checker (outbound-recordings.mjs), so the
// method → $def mapping exists once. Plain Node ESM: the harness scripts import it directly, the
// TypeScript tests through esbuild (types in outbound-schemas.d.mts).
//
// By method, against the schemas of the version in use:
//   - a request's params against the `*Request` $def whose `x-method` is the method and whose
//     `x-side` is the agent's (or `protocol`/`both`); the method must be one the schema's
//     `*.meta.json` lists among `agentMethods`/`protocolMethods`;
//   - a notification's params against the matching `*Notification` $def, the same way;
//   - an extension method (a name with a leading `_`, the spec's rule) against `ExtRequest` /
//     `ExtNotification` (any params), as the schemas' ExtMethodRequest allows it;
//   - a response we send to an agent request against the `*Response` of that request's method
//     (one of `clientMethods`); an error response's `error` against `Error`.
// `initialize` goes out before the version is known and is checked by its own shape: a plain v1
// or v2 initialize against that version. The hybrid initialize (src/protocol/negotiate.ts) is the
// one deliberate exception to exactness: it carries the v1 pair `clientCapabilities`/`clientInfo`
// next to the v2 fields. Its v2 part (without the v1 pair) is validated against v2's
// `InitializeRequest`, its v1 part (without `info`/`capabilities`, as protocolVersion 1) against
// v1's, so each half is exact; only the two extra root fields are allowed.
//
// `require`: 'all' = valid against the stable and the unstable schema of the version (the unit
// tests' strict mode); 'any' = valid against at least one of them (the client uses unstable
// surfaces on purpose, e.g. v1's `plan: {}` opt-in). In 'any' mode the later draft (`later-draft/`
// beside the spec snapshot, when present) counts too: surfaces such as `terminal/cancel` exist
// only there. Its files carry no meta.json; the method lists come from the $defs' x-method/x-side.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';

export const SCHEMAS_OF = { 1: ['v1', 'v1.unstable'], 2: ['v2', 'v2.unstable'] };
const ALL_SCHEMAS = [...SCHEMAS_OF[1], ...SCHEMAS_OF[2]];

/** Which `*.meta.json` lists hold the methods each side handles (x-side of the $defs). */
const META_LISTS = { agent: 'agentMethods', client: 'clientMethods', protocol: 'protocolMethods' };
/** Who handles what the client sends (requests, notifications) and what it answers (responses). */
const SENT_SIDES = ['agent', 'protocol', 'both'];
const ANSWERED_SIDES = ['client', 'both'];

const INT_RANGES = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  uint16: [0, 65535],
  uint32: [0, 2 ** 32 - 1],
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  uint64: [0, Number.MAX_SAFE_INTEGER],
};

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One ajv instance with the four schemas (and their method lists), compiled lazily per $def. */
export class SchemaSet {
  constructor(dir) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    this.schemas = new Map();
    this.meta = new Map();
    this.compiled = new Map();
    for (const [name, [min, max]] of Object.entries(INT_RANGES)) {
      this.ajv.addFormat(name, { type: 'number', validate: (n) => Number.isInteger(n) && n >= min && n <= max });
    }
    this.ajv.addFormat('double', { type: 'number', validate: (n) => Number.isFinite(n) });
    this.ajv.addFormat('uri', (s) => /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(s));
    this.ajv.addFormat('date-time', (s) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(s));
    this.ajv.addFormat('regex', (s) => {
      try {
        new RegExp(s);
        return true;
      } catch {
        return false;
      }
    });
    for (const name of ALL_SCHEMAS) {
      const schema = JSON.parse(readFileSync(path.join(dir, `${name}.schema.json`), 'utf8'));
      this.schemas.set(name, schema);
      this.meta.set(name, JSON.parse(readFileSync(path.join(dir, `${name}.meta.json`), 'utf8')));
      this.ajv.addSchema(schema, name);
    }
    this.laterNames = [];
    for (const name of ALL_SCHEMAS) {
      const file = path.join(dir, 'later-draft', `${name}.schema.json`);
      if (!existsSync(file)) continue;
      const schema = JSON.parse(readFileSync(file, 'utf8'));
      const later = `later-draft/${name}`;
      const meta = {};
      for (const def of Object.values(schema.$defs ?? {})) {
        const list = META_LISTS[def['x-side']];
        if (list && typeof def['x-method'] === 'string') (meta[list] ??= {})[def['x-method']] = def['x-method'];
      }
      this.schemas.set(later, schema);
      this.meta.set(later, meta);
      this.ajv.addSchema({ ...schema, $id: later }, later);
      this.laterNames.push(later);
    }
  }

  /** The schemas a message of `version` is checked against (the later draft only in 'any' mode). */
  namesFor(version, require) {
    return require === 'any'
      ? [...SCHEMAS_OF[version], ...this.laterNames.filter((n) => SCHEMAS_OF[version].includes(n.slice('later-draft/'.length)))]
      : SCHEMAS_OF[version];
  }

  /** Whether `schema`'s meta.json lists `method` as handled by one of `sides`. */
  lists(schema, method, sides) {
    const meta = this.meta.get(schema);
    return sides.some((side) => META_LISTS[side] !== undefined && Object.values(meta[META_LISTS[side]] ?? {}).includes(method));
  }

  /** The $def for a method: kind is Request, Notification or Response; sides are who handles it. */
  defFor(schema, method, kind, sides) {
    const defs = this.schemas.get(schema).$defs;
    return Object.keys(defs).find((k) => k.endsWith(kind) && defs[k]['x-method'] === method && sides.includes(String(defs[k]['x-side'])));
  }

  /** ajv's complaints (empty when valid), each prefixed with the schema and $def. */
  validate(schema, def, value) {
    const key = `${schema}#/$defs/${def}`;
    let fn = this.compiled.get(key);
    if (!fn) {
      fn = this.ajv.getSchema(key);
      if (!fn) throw new Error(`no schema ${key}`);
      this.compiled.set(key, fn);
    }
    if (fn(value)) return [];
    return (fn.errors ?? []).map(
      (e) => `${schema} ${def}${e.instancePath} ${e.message ?? ''}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`,
    );
  }
}

/** Combines per-schema problem lists: 'all' keeps every problem, 'any' none if one schema passed. */
function combine(perSchema, require) {
  if (require === 'any' && perSchema.some((p) => p.length === 0)) return [];
  return perSchema.flat();
}

/**
 * Problems of one message the client sent (empty: valid). `version` is the negotiated one;
 * `answered` is the method of the agent request a result response answers (undefined if none).
 */
export function checkSent(set, m, version, answered, require = 'all') {
  if (!isObject(m)) return ['not a JSON object'];
  const problems = [];
  if (m.jsonrpc !== '2.0') problems.push('jsonrpc is not "2.0"');
  const method = m.method;
  if (method === 'initialize' && m.id !== undefined) return [...problems, ...checkInitialize(set, isObject(m.params) ? m.params : {}, require)];
  const perSchema = set.namesFor(version, require).map((schema) => {
    const p = [];
    if (typeof method === 'string') {
      const kind = m.id === undefined ? 'Notification' : 'Request';
      if (kind === 'Request') p.push(...set.validate(schema, 'RequestId', m.id));
      // The schemas' ExtMethodRequest / ExtNotification: any method named with a leading `_`.
      const ext = method.startsWith('_') ? `Ext${kind}` : undefined;
      const def = ext ?? (set.lists(schema, method, SENT_SIDES) ? set.defFor(schema, method, kind, SENT_SIDES) : undefined);
      if (!def) return [...p, `${schema}: no ${kind} ${method} handled by the agent`];
      p.push(...set.validate(schema, def, m.params));
    } else if (m.error !== undefined) {
      if (!('id' in m)) p.push(`${schema}: an error response without id`);
      else p.push(...set.validate(schema, 'RequestId', m.id));
      p.push(...set.validate(schema, 'Error', m.error));
    } else if ('result' in m) {
      p.push(...set.validate(schema, 'RequestId', m.id));
      if (!answered) return [...p, `${schema}: a response to no request the agent sent`];
      const def = set.lists(schema, answered, ANSWERED_SIDES) ? set.defFor(schema, answered, 'Response', ANSWERED_SIDES) : undefined;
      if (!def) return [...p, `${schema}: no Response for ${answered}`];
      p.push(...set.validate(schema, def, m.result));
    } else {
      p.push(`${schema}: neither a request, a notification nor a response`);
    }
    return p;
  });
  return [...problems, ...combine(perSchema, require)];
}

/** See the file comment: plain initializes by their version, the hybrid one half by half. */
export function checkInitialize(set, params, require = 'all') {
  const hasV1 = 'clientCapabilities' in params || 'clientInfo' in params;
  const hasV2 = 'info' in params || 'capabilities' in params;
  const check = (version, value) =>
    combine(
      set.namesFor(version, require).map((s) => set.validate(s, 'InitializeRequest', value)),
      require,
    );
  if (hasV1 && hasV2) {
    const { clientCapabilities: _cc, clientInfo: _ci, ...v2Part } = params;
    const { info: _i, capabilities: _c, ...v1Rest } = params;
    const problems = [...check(2, v2Part), ...check(1, { ...v1Rest, protocolVersion: 1 })];
    if (params.protocolVersion !== 2) problems.push('a hybrid initialize must offer protocolVersion 2');
    return problems;
  }
  const version = params.protocolVersion === 1 ? 1 : 2;
  const problems = check(version, params);
  if (version === 1 && hasV2) problems.push('a v1 initialize carries v2 fields');
  if (version === 2 && hasV1) problems.push('a v2 initialize carries v1 fields');
  return problems;
}

/** Whether initialize params are the hybrid offer (v2 fields plus the v1 pair). */
export function isHybridInitialize(params) {
  return isObject(params) && ('clientCapabilities' in params || 'clientInfo' in params) && ('info' in params || 'capabilities' in params);
}
