// v1 client services: decoding the agent's fs/terminal requests and encoding our results.
import * as z from 'zod/mini';
import type { ClientServiceCodecs, ServiceCodec } from '../adapter';
import type { JsonObject } from '../domain';
import { lenientArray, parseOrThrow, put, soft, uint } from '../common/zod';
import { V1_METHODS as M } from './methods';

const ids = { sessionId: z.string() };
const terminalRef = z.pipe(
  z.looseObject({ ...ids, terminalId: z.string() }),
  z.transform((w) => ({ sessionId: w.sessionId, terminalId: w.terminalId })),
);
const optUint = soft(z.nullable(uint));

const readParams = z.pipe(
  z.looseObject({ ...ids, path: z.string(), line: optUint, limit: optUint }),
  z.transform((w) => {
    const p: { sessionId: string; path: string; line?: number | null; limit?: number | null } = { sessionId: w.sessionId, path: w.path };
    put(p, 'line', w.line);
    put(p, 'limit', w.limit);
    return p;
  }),
);

const writeParams = z.pipe(
  z.looseObject({ ...ids, path: z.string(), content: z.string() }),
  z.transform((w) => ({ sessionId: w.sessionId, path: w.path, content: w.content })),
);

const envVar = z.pipe(
  z.looseObject({ name: z.string(), value: z.string() }),
  z.transform((w) => ({ name: w.name, value: w.value })),
);
const createParams = z.pipe(
  z.looseObject({
    ...ids,
    command: z.string(),
    args: soft(lenientArray(z.string())),
    env: soft(lenientArray(envVar)),
    cwd: soft(z.nullable(z.string())),
    outputByteLimit: optUint,
  }),
  z.transform((w) => {
    const p: {
      sessionId: string;
      command: string;
      args?: string[];
      env?: { name: string; value: string }[];
      cwd?: string | null;
      outputByteLimit?: number | null;
    } = { sessionId: w.sessionId, command: w.command };
    put(p, 'args', w.args);
    put(p, 'env', w.env);
    put(p, 'cwd', w.cwd);
    put(p, 'outputByteLimit', w.outputByteLimit);
    return p;
  }),
);

type ExitStatus = { exitCode?: number | null; signal?: string | null };
function exitStatusWire(s: ExitStatus): JsonObject {
  const o: JsonObject = {};
  if (s.exitCode !== undefined) o.exitCode = s.exitCode;
  if (s.signal !== undefined) o.signal = s.signal;
  return o;
}

function codec<P, R>(method: string, params: z.ZodMiniType<P>, encodeResult: (r: R) => JsonObject): ServiceCodec<P, R> {
  return { method, decodeParams: (raw) => parseOrThrow(params, raw, `${method} params`), encodeResult };
}

const empty = (): JsonObject => ({});

export const V1_SERVICES: ClientServiceCodecs = {
  readTextFile: codec(M.fsReadTextFile, readParams, (r: { content: string }) => ({ content: r.content })),
  writeTextFile: codec(M.fsWriteTextFile, writeParams, empty),
  terminalCreate: codec(M.terminalCreate, createParams, (r: { terminalId: string }) => ({ terminalId: r.terminalId })),
  terminalOutput: codec(M.terminalOutput, terminalRef, (r: { output: string; truncated: boolean; exitStatus?: ExitStatus | null }) => {
    const o: JsonObject = { output: r.output, truncated: r.truncated };
    if (r.exitStatus !== undefined) o.exitStatus = r.exitStatus === null ? null : exitStatusWire(r.exitStatus);
    return o;
  }),
  terminalWaitForExit: codec(M.terminalWaitForExit, terminalRef, exitStatusWire),
  terminalKill: codec(M.terminalKill, terminalRef, empty),
  terminalRelease: codec(M.terminalRelease, terminalRef, empty),
};
