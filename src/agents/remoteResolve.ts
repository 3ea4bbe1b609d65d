// Where a remote agent's connection goes: its host name resolved once, before anything is sent,
// by a resolver given to the endpoint (the system's by default; tests give their own, so no test
// sends a name lookup off this machine). Plain `ws://` and `http://` are allowed only to this
// machine: the text of the name proves nothing (`name.localhost` may go to a DNS server that
// answers with any address), so every address the name resolves to must be loopback. The
// connection then goes to the addresses checked here, never to a second lookup of the name.
// Part of dist/remote-agent.js. Free of `vscode`.
import { promises as dns } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { RemoteReason } from './remoteErrors';
import { hostKey } from './remoteConfig';

export interface ResolvedAddress {
  readonly address: string;
  /** 4 or 6. */
  readonly family: number;
}

/** A host name's addresses; rejects with the resolver's error (`code`: ENOTFOUND, EAI_AGAIN…). */
export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');

/** 127.0.0.0/8, ::1 and IPv4-mapped 127.x: an address of this machine. */
export function isLoopbackAddress(address: string): boolean {
  const a = address.replace(/^\[|\]$/g, '');
  const family = isIP(a);
  return family !== 0 && LOOPBACK.check(a, family === 4 ? 'ipv4' : 'ipv6');
}

/** The addresses to connect to, or why not. */
export type Target = { readonly addresses: readonly ResolvedAddress[] } | { readonly refused: RemoteReason };

/** Resolves the url's host (an address literal is its own answer); plain ws/http only to loopback. */
export async function resolveTarget(url: string, resolve: Resolver): Promise<Target> {
  const u = new URL(url);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const plain = u.protocol === 'ws:' || u.protocol === 'http:';
  let addresses: readonly ResolvedAddress[];
  const literal = isIP(host);
  if (literal) addresses = [{ address: host, family: literal }];
  else {
    try {
      addresses = await resolve(host);
    } catch (err) {
      const code = (err as { code?: string }).code ?? '';
      if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL' || code === 'ENODATA')
        return { refused: { code: 'host-not-found', data: { host, tryAgain: code === 'EAI_AGAIN' } } };
      return { refused: { code: 'connect-failed', data: { origin: hostKey(url), detail: err instanceof Error ? err.message : String(err) } } };
    }
  }
  if (addresses.length === 0) return { refused: { code: 'host-not-found', data: { host, tryAgain: false } } };
  if (plain && !addresses.every((a) => isLoopbackAddress(a.address)))
    return { refused: { code: 'not-loopback', data: { host, scheme: u.protocol.slice(0, -1), addresses: addresses.map((a) => a.address).join(', ') } } };
  return { addresses };
}

/**
 * A `lookup` for `net.connect` (through `ws` and `http`) that answers with the checked addresses
 * only: the socket connects where the check looked, whatever the name resolves to by then.
 */
export function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname, options, cb) => {
    const fitting = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
    const list = fitting.length ? fitting : addresses;
    if (options.all)
      cb(
        null,
        list.map((a) => ({ ...a })),
      );
    else cb(null, list[0]!.address, list[0]!.family);
  };
}
