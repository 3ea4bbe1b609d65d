// Every ACP method this client speaks, once: its wire name, which side handles it and whether it
// is answered. A version's table (v1/methods.ts, v2/methods.ts) is derived from this one by
// `versionMethods`, naming in one place the methods that version lacks and the ones it names
// differently; so a name shared by the versions is written once, and only the adapters know
// which version differs how. test/unit/protocol/methods.test.ts checks each derived table
// against that version's meta.json and schema.
import type { MethodNames } from '../adapter';

/** Who handles a method: the agent (meta.json's agentMethods), the client (clientMethods), either (protocolMethods). */
export type MethodSide = 'agent' | 'client' | 'both';

export interface MethodSpec {
  /** The wire name, unless a version names it otherwise. */
  readonly name: string;
  readonly handledBy: MethodSide;
  /** A request is answered; a notification is not. */
  readonly kind: 'request' | 'notification';
}

export const ACP_METHODS = {
  // the client asks, the agent answers
  initialize: { name: 'initialize', handledBy: 'agent', kind: 'request' },
  authenticate: { name: 'authenticate', handledBy: 'agent', kind: 'request' },
  logout: { name: 'logout', handledBy: 'agent', kind: 'request' },
  sessionNew: { name: 'session/new', handledBy: 'agent', kind: 'request' },
  sessionLoad: { name: 'session/load', handledBy: 'agent', kind: 'request' },
  sessionResume: { name: 'session/resume', handledBy: 'agent', kind: 'request' },
  sessionList: { name: 'session/list', handledBy: 'agent', kind: 'request' },
  sessionClose: { name: 'session/close', handledBy: 'agent', kind: 'request' },
  sessionDelete: { name: 'session/delete', handledBy: 'agent', kind: 'request' },
  sessionFork: { name: 'session/fork', handledBy: 'agent', kind: 'request' },
  sessionArchive: { name: 'session/archive', handledBy: 'agent', kind: 'request' },
  sessionUnarchive: { name: 'session/unarchive', handledBy: 'agent', kind: 'request' },
  sessionSetTitle: { name: 'session/set_title', handledBy: 'agent', kind: 'request' },
  sessionStatus: { name: 'session/status', handledBy: 'agent', kind: 'request' },
  sessionSetMode: { name: 'session/set_mode', handledBy: 'agent', kind: 'request' },
  sessionSetConfigOption: { name: 'session/set_config_option', handledBy: 'agent', kind: 'request' },
  sessionPrompt: { name: 'session/prompt', handledBy: 'agent', kind: 'request' },
  terminalCancel: { name: 'terminal/cancel', handledBy: 'agent', kind: 'request' },
  toolCallCancel: { name: 'tool_call/cancel', handledBy: 'agent', kind: 'request' },
  sessionCancel: { name: 'session/cancel', handledBy: 'agent', kind: 'notification' },
  // either side
  cancelRequest: { name: '$/cancel_request', handledBy: 'both', kind: 'notification' },
  // the agent asks or tells, the client handles
  sessionUpdate: { name: 'session/update', handledBy: 'client', kind: 'notification' },
  requestPermission: { name: 'session/request_permission', handledBy: 'client', kind: 'request' },
  elicitationCreate: { name: 'elicitation/create', handledBy: 'client', kind: 'request' },
  elicitationComplete: { name: 'elicitation/complete', handledBy: 'client', kind: 'notification' },
  fsReadTextFile: { name: 'fs/read_text_file', handledBy: 'client', kind: 'request' },
  fsWriteTextFile: { name: 'fs/write_text_file', handledBy: 'client', kind: 'request' },
  terminalCreate: { name: 'terminal/create', handledBy: 'client', kind: 'request' },
  terminalOutput: { name: 'terminal/output', handledBy: 'client', kind: 'request' },
  terminalWaitForExit: { name: 'terminal/wait_for_exit', handledBy: 'client', kind: 'request' },
  terminalKill: { name: 'terminal/kill', handledBy: 'client', kind: 'request' },
  terminalRelease: { name: 'terminal/release', handledBy: 'client', kind: 'request' },
} as const satisfies { readonly [K in keyof MethodNames]-?: MethodSpec };

export type MethodKey = keyof typeof ACP_METHODS;

/** A version's table: every method it has, by key, with its wire name (as literal types). */
export type MethodTable<Without extends MethodKey, Renamed> = {
  readonly [K in Exclude<MethodKey, Without>]: K extends keyof Renamed ? Renamed[K] : (typeof ACP_METHODS)[K]['name'];
};

/** How a version differs from ACP_METHODS: the methods it does not have, and names of its own. */
export interface VersionDifferences<Without extends MethodKey, Renamed> {
  readonly without: readonly Without[];
  readonly renamed: Renamed;
}

export function versionMethods<const Without extends MethodKey, const Renamed extends { readonly [K in Exclude<MethodKey, Without>]?: string }>(
  d: VersionDifferences<Without, Renamed>,
): MethodTable<Without, Renamed> {
  const renamed: Partial<Record<MethodKey, string>> = d.renamed;
  const table: Partial<Record<MethodKey, string>> = {};
  for (const key of Object.keys(ACP_METHODS) as MethodKey[])
    if (!(d.without as readonly MethodKey[]).includes(key)) table[key] = renamed[key] ?? ACP_METHODS[key].name;
  return Object.freeze(table) as MethodTable<Without, Renamed>;
}

/** A version's methods with who handles each and whether it is answered (for readers of the wire). */
export function methodSpecs(table: Partial<Record<MethodKey, string>>): (MethodSpec & { readonly key: MethodKey })[] {
  return (Object.keys(table) as MethodKey[]).map((key) => ({ ...ACP_METHODS[key], key, name: table[key]! }));
}

/**
 * Extension methods (`_`-prefixed, outside the schemas' method tables; the schemas' ExtRequest
 * allows them): the same name in both versions, sent only to an agent that advertises them.
 */
export const EXTENSION_METHODS = {
  /** Input into the running turn (`_meta.steering` of the initialize answer advertises it). */
  sessionSteering: '_session/steering',
} as const;
