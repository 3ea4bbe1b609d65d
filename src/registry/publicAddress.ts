// Where a remote registry index may make us connect: icons come from public hosts over https (or the
// index's own origin), never from this machine or a private network, unless the index itself is
// local. A host name is resolved first (every address), every address is checked, and the
// connection goes to a checked address (the `lookup` handed to http(s).request answers with it), so
// a name cannot be re-resolved to 127.0.0.1 between check and connect. IP literals are checked
// directly (Node does not look them up). No `vscode`.
import * as dns from 'dns';
import * as net from 'net';
import { DownloadError } from './http';

export interface Resolved {
  address: string;
  family: number;
}
/** Every address of a host name (dns.lookup with `all`, by default). */
export type Resolve = (hostname: string) => Promise<Resolved[]>;

export const systemResolve: Resolve = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** IPv4 blocks that are not the public Internet: [first address, prefix length]. */
const V4_BLOCKS: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

const v4 = (ip: string): number => ip.split('.').reduce((n, p) => n * 256 + Number(p), 0);

function v4Public(ip: string): boolean {
  const n = v4(ip);
  return !V4_BLOCKS.some(([base, bits]) => Math.floor(n / 2 ** (32 - bits)) === Math.floor(v4(base) / 2 ** (32 - bits)));
}

/** The eight 16-bit groups of an IPv6 address (an embedded dotted IPv4 tail included). */
function v6Groups(ip: string): number[] {
  let s = ip.replace(/%.*$/, '');
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (tail) {
    const n = v4(tail[1]!);
    s = s.slice(0, -tail[1]!.length) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, rest] = s.split('::') as [string, string | undefined];
  const a = head ? head.split(':') : [];
  const b = rest ? rest.split(':') : [];
  const fill = rest === undefined ? [] : Array<string>(8 - a.length - b.length).fill('0');
  return [...a, ...fill, ...b].map((g) => parseInt(g, 16));
}

function v6Public(ip: string): boolean {
  const g = v6Groups(ip);
  if (g.length !== 8 || g.some((x) => Number.isNaN(x))) return false;
  const [g0, , , , , g5, g6, g7] = g as [number, number, number, number, number, number, number, number];
  const allZeroTo = (k: number): boolean => g.slice(0, k).every((x) => x === 0);
  const embedded = `${g6 >> 8}.${g6 & 255}.${g7 >> 8}.${g7 & 255}`;
  if (allZeroTo(5) && g5 === 0xffff) return v4Public(embedded); // ::ffff:a.b.c.d
  if (allZeroTo(6)) return false; // ::, ::1, ::a.b.c.d
  if (g0 === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4Public(embedded); // 64:ff9b::/96 NAT64
  if ((g0 & 0xfe00) === 0xfc00) return false; // fc00::/7 unique local
  if ((g0 & 0xffc0) === 0xfe80) return false; // fe80::/10 link-local
  if ((g0 & 0xff00) === 0xff00) return false; // multicast
  return true;
}

/** Whether an IP address is on the public Internet (not loopback, private, link-local, shared, reserved). */
export function isPublicAddress(ip: string): boolean {
  const family = net.isIP(ip);
  return family === 4 ? v4Public(ip) : family === 6 ? v6Public(ip) : false;
}

const refused = (what: string, host: string, address?: string): DownloadError =>
  new DownloadError(
    `The ${what} at ${host} was not fetched: ${address && address !== host ? `it resolves to ${address}, ` : ''}` +
      'an address on this machine or a private network, which a remote registry may not make us contact.',
  );

/** A `lookup` for http(s).request that resolves every address, refuses any non-public one, and answers with checked ones. */
export function publicLookup(resolve: Resolve, what: string): net.LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (all) => {
        const bad = all.find((a) => !isPublicAddress(a.address));
        if (!all.length || bad) return callback(bad ? refused(what, hostname, bad.address) : new DownloadError(`${hostname} has no address.`), '', 0);
        const wanted = options.family === 4 || options.family === 6 ? all.filter((a) => a.family === options.family) : all;
        if (!wanted.length) return callback(new DownloadError(`${hostname} has no IPv${options.family} address.`), '', 0);
        if (options.all) (callback as unknown as (e: null, a: Resolved[]) => void)(null, wanted);
        else callback(null, wanted[0]!.address, wanted[0]!.family);
      },
      (err: unknown) => callback(err as NodeJS.ErrnoException, '', 0),
    );
  };
}

const isLoopbackName = (hostname: string): boolean => {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || (net.isIPv4(h) && h.startsWith('127.')) || h === '::1';
};

/**
 * The rule for every connection an index makes us open for its icons (each redirect hop included):
 * a local index (loopback URL) may point anywhere checkUrl allows; a remote one only at its own
 * origin or at https on public addresses. Throws DownloadError; returns the lookup to connect with.
 */
export function iconGuard(indexUrl: string, resolve: Resolve = systemResolve): (url: URL) => { lookup?: net.LookupFunction } {
  let index: URL | undefined;
  try {
    index = new URL(indexUrl);
  } catch {
    index = undefined;
  }
  const localIndex = !!index && isLoopbackName(index.hostname);
  return (url) => {
    if (localIndex || (index && url.origin === index.origin)) return {};
    if (url.protocol !== 'https:') throw new DownloadError(`The icon ${url.origin} is not an https address; a remote registry's icons must be.`);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(host)) {
      if (!isPublicAddress(host)) throw refused('icon', url.host);
      return {};
    }
    if (host.toLowerCase() === 'localhost' || host.toLowerCase().endsWith('.localhost')) throw refused('icon', url.host);
    return { lookup: publicLookup(resolve, 'icon') };
  };
}
