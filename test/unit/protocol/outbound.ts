// Records every message the client sends (through `logger.wire('send', …)`) and validates it with
// ajv against the official JSON schema of the negotiated version (test/fixtures/schemas, see
// SOURCE.md there). Each message is checked against the stable *and* the unstable schema of its
// version, and by method:
//   - a request's params against the `*Request` $def whose `x-method` is the method;
//   - a notification's params against the matching `*Notification` $def;
//   - a response we send (to an agent request seen on the wire) against the matching `*Response`,
//     an error response against `Error`.
// `initialize` is checked by its own shape, since it goes out before the version is known: a
// plain v1 or v2 initialize against that version. The hybrid initialize (negotiate.ts) is the
// one deliberate exception to exactness: it carries the v1 pair `clientCapabilities`/`clientInfo`
// next to the v2 fields. Its v2 part (the message without the v1 pair) is validated against v2's
// `InitializeRequest` and its v1 part (without `info`/`capabilities`, as protocolVersion 1)
// against v1's, so each half is exact; only the two extra root fields are allowed.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import type { LogLevel, ProtocolLogger } from '../../../src/protocol/api';

type Obj = Record<string, unknown>;
type SchemaName = 'v1' | 'v1.unstable' | 'v2' | 'v2.unstable';
const SCHEMAS_OF: Record<1 | 2, SchemaName[]> = { 1: ['v1', 'v1.unstable'], 2: ['v2', 'v2.unstable'] };

/** test/fixtures/schemas, found upwards from the compiled test or the cwd. */
export function schemasDir(): string {
  for (const start of [__dirname, process.cwd()]) {
    let dir = start;
    for (;;) {
      const candidate = path.join(dir, 'test', 'fixtures', 'schemas');
      if (fs.existsSync(path.join(candidate, 'v2.schema.json'))) return candidate;
      const parent = path.dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
  throw new Error('test/fixtures/schemas not found');
}

const INT_RANGES: Record<string, [number, number]> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  uint16: [0, 65535],
  uint32: [0, 2 ** 32 - 1],
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  uint64: [0, Number.MAX_SAFE_INTEGER],
};

/** One ajv instance with the four schemas, compiled lazily per $def. */
class SchemaSet {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  private readonly schemas = new Map<SchemaName, Obj>();
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(dir: string) {
    for (const [name, [min, max]] of Object.entries(INT_RANGES)) {
      this.ajv.addFormat(name, { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= min && n <= max });
    }
    this.ajv.addFormat('double', { type: 'number', validate: (n: number) => Number.isFinite(n) });
    this.ajv.addFormat('uri', (s: string) => /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(s));
    this.ajv.addFormat('date-time', (s: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(s));
    this.ajv.addFormat('regex', (s: string) => { try { new RegExp(s); return true; } catch { return false; } });
    for (const name of ['v1', 'v1.unstable', 'v2', 'v2.unstable'] as const) {
      const schema = JSON.parse(fs.readFileSync(path.join(dir, `${name}.schema.json`), 'utf8')) as Obj;
      this.schemas.set(name, schema);
      this.ajv.addSchema(schema, name);
    }
  }

  /** The $def for a method: kind is Request, Notification or Response; side is who handles it. */
  defFor(schema: SchemaName, method: string, kind: 'Request' | 'Notification' | 'Response', sides: string[]): string | undefined {
    const defs = this.schemas.get(schema)!.$defs as Record<string, Obj>;
    return Object.keys(defs).find((k) => k.endsWith(kind) && defs[k]['x-method'] === method && sides.includes(String(defs[k]['x-side'])));
  }

  validate(schema: SchemaName, def: string, value: unknown): string[] {
    const key = `${schema}#/$defs/${def}`;
    let fn = this.compiled.get(key);
    if (!fn) {
      fn = this.ajv.getSchema(key);
      if (!fn) throw new Error(`no schema ${key}`);
      this.compiled.set(key, fn);
    }
    if (fn(value)) return [];
    return (fn.errors ?? []).map((e) => `${schema} ${def}${e.instancePath} ${e.message ?? ''}`);
  }
}

let shared: SchemaSet | undefined;
function schemaSet(): SchemaSet {
  shared ??= new SchemaSet(schemasDir());
  return shared;
}

export interface Violation { message: unknown; problems: string[] }

export class OutboundRecorder {
  readonly sent: Obj[] = [];
  readonly received: Obj[] = [];
  readonly logs: { level: LogLevel; message: string }[] = [];
  /** Method of each agent → client request, by id, to validate our responses. */
  private readonly incomingMethods = new Map<string, string>();
  private readonly responseMethods = new WeakMap<Obj, string>();

  readonly logger: ProtocolLogger = {
    log: (level, message) => { this.logs.push({ level, message }); },
    wire: (direction, message) => {
      const m = message as Obj;
      if (direction === 'receive') {
        this.received.push(m);
        if (typeof m.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number')) {
          this.incomingMethods.set(JSON.stringify(m.id), m.method);
        }
        return;
      }
      this.sent.push(m);
      if (m.method === undefined && m.id !== undefined) {
        const method = this.incomingMethods.get(JSON.stringify(m.id));
        if (method) this.responseMethods.set(m, method);
      }
    },
  };

  /** Every sent message that does not validate against `version`'s schemas, with why. */
  violations(version: 1 | 2): Violation[] {
    const out: Violation[] = [];
    for (const m of this.sent) {
      const problems = this.check(m, version);
      if (problems.length) out.push({ message: m, problems });
    }
    return out;
  }

  /** Throws, listing every violation, unless every sent message validates. */
  assertAllValid(version: 1 | 2): void {
    const v = this.violations(version);
    if (v.length) {
      throw new Error(`${v.length} outbound message(s) do not match the v${version} schema:\n${v.map((x) => `${JSON.stringify(x.message)}\n  ${x.problems.join('\n  ')}`).join('\n')}`);
    }
  }

  sentRequests(method: string): Obj[] {
    return this.sent.filter((m) => m.method === method && m.id !== undefined);
  }

  private check(m: Obj, version: 1 | 2): string[] {
    const problems: string[] = [];
    if (m.jsonrpc !== '2.0') problems.push('jsonrpc is not "2.0"');
    const set = schemaSet();
    const method = m.method;
    if (method === 'initialize' && m.id !== undefined) return [...problems, ...checkInitialize(set, (m.params ?? {}) as Obj)];
    for (const schema of SCHEMAS_OF[version]) {
      if (typeof method === 'string') {
        const kind = m.id === undefined ? 'Notification' : 'Request';
        if (kind === 'Request') problems.push(...set.validate(schema, 'RequestId', m.id));
        const def = set.defFor(schema, method, kind, ['agent', 'protocol', 'both']);
        if (!def) { problems.push(`${schema}: no ${kind} named ${method}`); continue; }
        problems.push(...set.validate(schema, def, m.params));
      } else if (m.error !== undefined) {
        problems.push(...set.validate(schema, 'Error', m.error));
      } else {
        const answered = this.responseMethods.get(m);
        if (!answered) { problems.push(`${schema}: a response to no request the agent sent`); continue; }
        const def = set.defFor(schema, answered, 'Response', ['client', 'both']);
        if (!def) { problems.push(`${schema}: no Response for ${answered}`); continue; }
        problems.push(...set.validate(schema, def, m.result));
      }
    }
    return problems;
  }
}

/** See the file comment: plain initializes by their version, the hybrid one half by half. */
function checkInitialize(set: SchemaSet, params: Obj): string[] {
  const hasV1 = 'clientCapabilities' in params || 'clientInfo' in params;
  const hasV2 = 'info' in params || 'capabilities' in params;
  const check = (version: 1 | 2, value: Obj): string[] => SCHEMAS_OF[version].flatMap((s) => set.validate(s, 'InitializeRequest', value));
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
