// Records every message the client sends (through `logger.wire('send', …)`) and validates it with
// ajv against the official JSON schema of the negotiated version (test/fixtures/schemas, see
// SOURCE.md there), against the stable *and* the unstable schema of that version. How each
// message is checked (by method; the hybrid initialize half by half) is shared with the recording
// checker of the integration and interop runs: test/harness/lib/outbound-schemas.mjs.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LogLevel, ProtocolLogger } from '../../../src/protocol/api';
import { SchemaSet, checkSent } from '../../harness/lib/outbound-schemas.mjs';
import { checkRecording } from '../../harness/lib/outbound-recordings.mjs';

type Obj = Record<string, unknown>;

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

let shared: SchemaSet | undefined;
function schemaSet(): SchemaSet {
  shared ??= new SchemaSet(schemasDir());
  return shared;
}

export interface Violation {
  message: unknown;
  problems: string[];
}

export class OutboundRecorder {
  readonly sent: Obj[] = [];
  readonly received: Obj[] = [];
  /** Both directions, in wire order. */
  readonly wireLines: { dir: 'send' | 'receive'; msg: Obj }[] = [];
  readonly logs: { level: LogLevel; message: string }[] = [];
  /** Method of each agent → client request, by id, to validate our responses. */
  private readonly incomingMethods = new Map<string, string>();
  private readonly responseMethods = new WeakMap<Obj, string>();

  readonly logger: ProtocolLogger = {
    log: (level, message) => {
      this.logs.push({ level, message });
    },
    wire: (direction, message) => {
      const m = message as Obj;
      this.wireLines.push({ dir: direction, msg: m });
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
      throw new Error(
        `${v.length} outbound message(s) do not match the v${version} schema:\n${v.map((x) => `${JSON.stringify(x.message)}\n  ${x.problems.join('\n  ')}`).join('\n')}`,
      );
    }
  }

  /**
   * Like violations(), with the version this connection negotiated, read from its initialize
   * exchange the way negotiate.ts decides it (the check the harness runs after every test).
   */
  violationsAsNegotiated(): { version: 1 | 2; violations: Violation[] } {
    const lines = this.wireLines.map((l, i) => ({ line: i + 1, ...l }));
    const r = checkRecording(schemaSet(), { header: undefined, lines, bad: [] }, 'all');
    return { version: r.version, violations: r.failures.map((f) => ({ message: lines[f.line - 1].msg, problems: f.problems })) };
  }

  sentRequests(method: string): Obj[] {
    return this.sent.filter((m) => m.method === method && m.id !== undefined);
  }

  private check(m: Obj, version: 1 | 2): string[] {
    return checkSent(schemaSet(), m, version, this.responseMethods.get(m), 'all');
  }
}
