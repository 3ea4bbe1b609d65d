// `initialize`: which version to speak, what the client offers, and the answer.
//
// protocolVersion 1 → v1. Anything else (2, a higher number, a hybrid request carrying both
// `info`/`capabilities` and `clientInfo`/`clientCapabilities`) → v2. ACP_DEMO_PROTOCOL forces the
// answer, as an agent that only knows that version would: forced v1 reads `clientCapabilities`
// when the request carries them (a hybrid request) and otherwise sees no client capabilities.

import type { ProtocolVersion } from './model';
import { ErrorCodes, RpcError } from './jsonrpc/peer';
import type { ClientServices } from './turn';

export const AGENT_INFO = { name: 'acp-plans-demo', title: 'Demo Agent', version: '0.1.0' } as const;

export interface Negotiated {
  version: ProtocolVersion;
  services: ClientServices;
  /** v1: the client opted in to plan_update / plan_removed with `clientCapabilities.plan`. */
  planUpdates: boolean;
  /** Boolean config options may be shown (v1: `session.configOptions.boolean`; v2: always). */
  booleanConfig: boolean;
  /** Compaction updates may be sent (v1: `session.compaction`, unstable; v2: always). */
  compaction: boolean;
}

type Obj = Record<string, unknown>;

function obj(value: unknown): Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Obj) : {};
}

function isSet(value: unknown): boolean {
  return value !== undefined && value !== null;
}

export function negotiate(params: unknown, forced: ProtocolVersion | undefined): Negotiated {
  const p = obj(params);
  const requested = p.protocolVersion;
  if (typeof requested !== 'number' || !Number.isInteger(requested) || requested < 0 || requested > 65535) {
    throw new RpcError(ErrorCodes.invalidParams, 'protocolVersion must be an integer');
  }
  const version: ProtocolVersion = forced ?? (requested === 1 ? 1 : 2);
  if (version === 2) {
    return { version, services: { readTextFile: false, writeTextFile: false, terminal: false }, planUpdates: false, booleanConfig: true, compaction: true };
  }
  const caps = obj(p.clientCapabilities);
  const fs = obj(caps.fs);
  return {
    version,
    services: { readTextFile: fs.readTextFile === true, writeTextFile: fs.writeTextFile === true, terminal: caps.terminal === true },
    planUpdates: isSet(caps.plan),
    booleanConfig: isSet(obj(obj(caps.session).configOptions).boolean),
    compaction: isSet(obj(caps.session).compaction),
  };
}

/** `_session/steering` is served (src/demo/steering.ts), as codex-acp and claude-agent-acp advertise it. */
const STEERING_META = { steering: { supported: true } };

/** `authMethods`: what the agent lists (scenarios/signin.ts decides). */
export function initializeResult(n: Negotiated, authMethods: object[] = []): object {
  if (n.version === 1) {
    return {
      protocolVersion: 1,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: true, audio: false, embeddedContext: true },
        mcpCapabilities: { http: false, sse: false },
        sessionCapabilities: { list: {}, resume: {}, close: {} },
      },
      authMethods,
      agentInfo: { ...AGENT_INFO },
      _meta: { ...STEERING_META },
    };
  }
  return {
    protocolVersion: 2,
    info: { ...AGENT_INFO },
    // fork, archive, title, status: session management of the later draft (src/demo/sessionManagement.ts)
    capabilities: { session: { prompt: { embeddedContext: {}, image: {} }, fork: {}, archive: {}, title: {}, status: {} } },
    authMethods,
    _meta: { ...STEERING_META },
  };
}
