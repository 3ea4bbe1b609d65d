// `initialize` and the choice of protocol version (WIRE.md §2, §4). One connection speaks one
// version, chosen here from the agent's answer: its number *and* its shape.
//
//   offered           agent answers                         result
//   auto (hybrid 2)   2 with `info`                         v2
//                     2 without `info` (echoing v1 agent)   v1
//                     1                                     v1, same connection
//   any               0, >2, a string, nothing              IncompatibleAgentError
//   any               error -32022 {supported}              one retry with the highest version we
//                                                           know in `supported` (auto only)
//   auto              any other error                       one retry as v1
//   pinned 1 / 2      the other version                     IncompatibleAgentError
import { CancellationTokenSource } from 'vscode-jsonrpc/node';
import type { CancelToken, ProtocolLogger } from './api';
import type { JsonObject, ProtocolVersion } from './domain';
import { createAdapter, type InitializeInfo, type InitializeOptions, type VersionAdapter } from './adapter';
import { ErrorCodes, RpcError } from './transport/errors';
import { IncompatibleAgentError, InitializeTimeoutError } from './connectionErrors';

export const DEFAULT_INITIALIZE_TIMEOUT_MS = 30_000;
const KNOWN_VERSIONS: readonly ProtocolVersion[] = [1, 2];

export { IncompatibleAgentError, InitializeTimeoutError } from './connectionErrors';

/** The part of the connection negotiation needs. */
export interface InitializeChannel {
  sendRequest(method: string, params: object, token?: CancelToken): Promise<unknown>;
}

export interface NegotiateOptions {
  protocol: 'auto' | 1 | 2;
  init: InitializeOptions;
  /** Per `initialize` attempt. Default 30 s. */
  timeoutMs?: number;
  logger?: ProtocolLogger;
}

export interface Negotiated {
  adapter: VersionAdapter;
  info: InitializeInfo;
}

export async function negotiate(channel: InitializeChannel, options: NegotiateOptions): Promise<Negotiated> {
  const n = new Negotiation(channel, options);
  return n.run();
}

/**
 * The initialize params offered in `auto` mode: v2's (`protocolVersion: 2`, `info`,
 * `capabilities`) plus v1's `clientCapabilities` and `clientInfo`.
 *
 * Why both: a v1-only agent drops the fields it does not know, so a plain v2 initialize would
 * leave it believing the client offers no fs, no terminal and no unstable `plan: {}` opt-in,
 * and it would then answer `protocolVersion: 1` and carry on without them. v2 agents ignore the
 * v1 pair. The alternative, re-spawning the agent for a clean v1 initialize, costs a process
 * start. Strictly this adds fields at the root of a spec type; both official SDKs tolerate it.
 */
export function hybridInitializeParams(v1: VersionAdapter, v2: VersionAdapter, init: InitializeOptions): JsonObject {
  const p2 = v2.initializeParams(init);
  const p1 = v1.initializeParams(init);
  const out: JsonObject = { ...p2 };
  if (p1.clientCapabilities !== undefined) out.clientCapabilities = p1.clientCapabilities;
  if (p1.clientInfo !== undefined) out.clientInfo = p1.clientInfo;
  return out;
}

class Negotiation {
  private readonly adapters = new Map<ProtocolVersion, VersionAdapter>();
  private readonly timeoutMs: number;

  constructor(
    private readonly channel: InitializeChannel,
    private readonly options: NegotiateOptions,
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_INITIALIZE_TIMEOUT_MS;
  }

  async run(): Promise<Negotiated> {
    const { protocol } = this.options;
    const offer: ProtocolVersion = protocol === 'auto' ? 2 : protocol;
    try {
      return await this.attempt(offer, protocol === 'auto');
    } catch (err) {
      if (!(err instanceof RpcError)) throw err;
      const retry = this.retryVersion(offer, err);
      this.log('info', `initialize (v${offer}) failed with ${err.code} "${err.message}"; retrying as v${retry}.`);
      return this.attempt(retry, false);
    }
  }

  /** The version to retry with after a failed first attempt, or throws. */
  private retryVersion(offered: ProtocolVersion, err: RpcError): ProtocolVersion {
    const { protocol } = this.options;
    const supported = (err.data as { supported?: unknown } | undefined)?.supported;
    if (err.code === ErrorCodes.UnsupportedProtocolVersion && Array.isArray(supported)) {
      const usable = KNOWN_VERSIONS.filter((v) => supported.includes(v) && v !== offered && (protocol === 'auto' || v === protocol));
      if (usable.length === 0) {
        throw new IncompatibleAgentError(
          `The agent supports ACP protocol version(s) ${supported.map((v) => JSON.stringify(v)).join(', ')}, ` +
            `but this client ${protocol === 'auto' ? 'speaks versions 1 and 2' : `is set to version ${protocol}`}.`,
          supported,
          `${err.code} ${err.message}`,
        );
      }
      return usable[usable.length - 1];
    }
    if (protocol === 'auto' && offered === 2) return 1;
    throw err;
  }

  private async attempt(version: ProtocolVersion, hybrid: boolean): Promise<Negotiated> {
    const adapter = this.adapter(version);
    const params = hybrid ? hybridInitializeParams(this.adapter(1), this.adapter(2), this.options.init) : adapter.initializeParams(this.options.init);
    const result = await this.requestWithTimeout(adapter.methods.initialize, params);
    return this.decide(result);
  }

  /** Chooses the version from the answer's number and shape. */
  private decide(result: unknown): Negotiated {
    const n = decideVersion(result, this.options.protocol, (v) => this.adapter(v));
    this.log(
      'info',
      `Negotiated ACP v${n.adapter.version} (agent answered protocolVersion ${JSON.stringify(isObject(result) ? result.protocolVersion : undefined)}).`,
    );
    return n;
  }

  private adapter(version: ProtocolVersion): VersionAdapter {
    let a = this.adapters.get(version);
    if (!a) {
      a = createAdapter(version);
      this.adapters.set(version, a);
    }
    return a;
  }

  private requestWithTimeout(method: string, params: JsonObject): Promise<unknown> {
    const source = new CancellationTokenSource();
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        source.cancel(); // tells the agent with $/cancel_request
        reject(new InitializeTimeoutError(this.timeoutMs));
      }, this.timeoutMs);
      this.channel.sendRequest(method, params, source.token).then(
        (r) => {
          clearTimeout(timer);
          resolve(r);
        },
        (e: unknown) => {
          clearTimeout(timer);
          reject(e instanceof Error ? e : new Error(String(e)));
        },
      );
    }).finally(() => source.dispose());
  }

  private log(level: 'info' | 'warn', message: string): void {
    this.options.logger?.log(level, message);
  }
}

/**
 * The version an `initialize` answer settles on, from its number and shape (the table above),
 * with that version's adapter and the parsed answer. Synchronous: replaying a recorded answer
 * (src/recording) decides exactly as a live connection does. Throws IncompatibleAgentError.
 */
export function decideVersion(result: unknown, protocol: 'auto' | 1 | 2, adapterFor: (v: ProtocolVersion) => VersionAdapter = createAdapter): Negotiated {
  const body = isObject(result) ? result : {};
  const answered = body.protocolVersion;
  let version: ProtocolVersion;
  if (answered === 2 && isObject(body.info)) version = 2;
  else if (answered === 2 && protocol !== 2)
    version = 1; // a v1 agent echoing our version: the body decides
  else if (answered === 1) version = 1;
  else throw new IncompatibleAgentError(describeAnswer(answered, protocol), answered);
  if (protocol !== 'auto' && version !== protocol) {
    throw new IncompatibleAgentError(
      `The agent speaks ACP protocol version ${version}, but it is set to use version ${protocol} only. ` + `Set its "protocol" to "auto" or "${version}".`,
      answered,
    );
  }
  const adapter = adapterFor(version);
  try {
    return { adapter, info: adapter.parseInitializeResult(result) };
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    throw new IncompatibleAgentError(`The agent's answer to "initialize" is not valid ACP v${version}: ${detail}`, answered, detail);
  }
}

function describeAnswer(answered: unknown, protocol: 'auto' | 1 | 2): string {
  const speaks = protocol === 'auto' ? 'versions 1 and 2' : `version ${protocol}`;
  if (typeof answered === 'string') {
    return `The agent answered protocol version "${answered}", a pre-release version string. ` + `This client speaks ACP ${speaks}; update the agent.`;
  }
  if (answered === undefined) return `The agent's answer to "initialize" has no protocolVersion. This client speaks ACP ${speaks}.`;
  if (answered === 2) return `The agent answered protocol version 2 without the v2 "info" field. This client is set to ACP version 2 only.`;
  return `The agent answered protocol version ${JSON.stringify(answered)}, which this client does not speak (it speaks ACP ${speaks}).`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
