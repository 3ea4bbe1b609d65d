// The cookies a remote agent's server sets, sent back when it is connected again: the Remote
// Transports RFD requires clients to keep them for session affinity (a load balancer sends a
// reconnecting client back to the same backend). One jar per agent, in memory only, for the
// window's life. Names and values only: attributes other than an expiry in the
// past (`Max-Age=0`, an old `Expires`) are ignored, since every cookie goes back to one URL.
// Free of `vscode`.

/** At most this many cookies, each name=value at most 4 KiB (RFC 6265 minimums). */
const MAX_COOKIES = 50;
const MAX_COOKIE_BYTES = 4096;

export class CookieJar {
  private readonly cookies = new Map<string, string>();

  /** Takes the `Set-Cookie` headers of a response. */
  take(setCookie: string | readonly string[] | undefined): void {
    for (const line of typeof setCookie === 'string' ? [setCookie] : (setCookie ?? [])) {
      if (line.length > MAX_COOKIE_BYTES) continue;
      const [pair = '', ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) continue;
      if (attrs.some((a) => expired(a.trim()))) this.cookies.delete(name);
      else if (this.cookies.has(name) || this.cookies.size < MAX_COOKIES) this.cookies.set(name, value);
    }
  }

  /** The `Cookie` header to send, or undefined when there is none. */
  header(): string | undefined {
    return this.cookies.size ? [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') : undefined;
  }

  clear(): void {
    this.cookies.clear();
  }
}

function expired(attr: string): boolean {
  const eq = attr.indexOf('=');
  const key = (eq < 0 ? attr : attr.slice(0, eq)).trim().toLowerCase();
  const value = eq < 0 ? '' : attr.slice(eq + 1).trim();
  if (key === 'max-age') return Number(value) <= 0;
  if (key === 'expires') return Date.parse(value) <= Date.now();
  return false;
}
