// Where a remote agent connects (src/agents/remoteResolve.ts, through the WebSocket endpoint):
// plain `ws://` only when every address the name resolves to is this machine's, whatever the
// name says (`name.localhost`); the socket goes to the addresses checked, never to a second
// lookup; an unknown name is said as such. Every name here is resolved by the test's own
// resolver: no test sends a name lookup off this machine.
import * as assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { isLoopbackAddress, resolveTarget, type ResolvedAddress, type Resolver } from '../../../src/agents/remoteResolve';
import { WebSocketEndpoint } from '../../../src/agents/wsEndpoint';
import { english } from '../../../src/common/l10n';
import { remoteWords } from '../../../src/ui/remoteWords';

/** A resolver that knows only `names`; anything else is not found. Records what it was asked. */
function resolver(names: Record<string, string[]>): Resolver & { asked: string[] } {
  const asked: string[] = [];
  const fn = (host: string): Promise<readonly ResolvedAddress[]> => {
    asked.push(host);
    const list = names[host];
    if (!list) return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }));
    return Promise.resolve(list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  };
  return Object.assign(fn, { asked });
}

async function listen(host: string): Promise<{ wss: WebSocketServer; port: number; connections: number }> {
  const wss = new WebSocketServer({ host, port: 0 });
  await new Promise((r) => wss.once('listening', r));
  const s = { wss, port: (wss.address() as AddressInfo).port, connections: 0 };
  wss.on('connection', () => s.connections++);
  return s;
}

const close = (wss: WebSocketServer): Promise<void> =>
  new Promise((r) => {
    for (const c of wss.clients) c.terminate();
    wss.close(() => r());
  });

function endpoint(url: string, resolve: Resolver): WebSocketEndpoint {
  return new WebSocketEndpoint({
    url,
    maxMessageBytes: 64 * 1024,
    describe: (r) => remoteWords(r, english),
    prepare: () => Promise.resolve({ headers: {} }),
    resolve,
  });
}

const within = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms).unref())]);

describe('remote agent: where it connects', function () {
  this.timeout(10000);

  it('knows loopback addresses from others', () => {
    for (const a of ['127.0.0.1', '127.255.0.9', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '[::1]']) assert.equal(isLoopbackAddress(a), true, a);
    for (const a of ['128.0.0.1', '10.0.0.1', '0.0.0.0', '::', '::2', '::ffff:10.0.0.1', 'localhost', 'x.localhost', ''])
      assert.equal(isLoopbackAddress(a), false, a);
  });

  it('plain ws:// to a name: every address it resolves to must be loopback', async () => {
    const r = resolver({ 'evil.localhost': ['203.0.113.7'], 'mixed.localhost': ['127.0.0.1', '198.51.100.2'], 'box.localhost': ['127.0.0.1', '::1'] });
    assert.deepEqual(await resolveTarget('ws://evil.localhost:9/acp', r), {
      refused: { code: 'not-loopback', data: { host: 'evil.localhost', scheme: 'ws', addresses: '203.0.113.7' } },
    });
    assert.deepEqual(await resolveTarget('http://mixed.localhost:9/acp', r), {
      refused: { code: 'not-loopback', data: { host: 'mixed.localhost', scheme: 'http', addresses: '127.0.0.1, 198.51.100.2' } },
    });
    assert.deepEqual(await resolveTarget('ws://box.localhost:9/acp', r), {
      addresses: [
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ],
    });
    // wss:// may go anywhere; an address literal is its own answer (no lookup).
    assert.deepEqual(await resolveTarget('wss://evil.localhost/acp', r), { addresses: [{ address: '203.0.113.7', family: 4 }] });
    assert.deepEqual(await resolveTarget('ws://[::1]:9/acp', r), { addresses: [{ address: '::1', family: 6 }] });
    assert.deepEqual(r.asked, ['evil.localhost', 'mixed.localhost', 'box.localhost', 'evil.localhost']);
  });

  it('refuses ws://name.localhost that resolves to another machine, before anything is sent, saying why', async () => {
    const s = await listen('127.0.0.1');
    try {
      const r = resolver({ 'evil.localhost': ['203.0.113.7'] });
      const e = endpoint(`ws://evil.localhost:${s.port}/acp`, r);
      const exit = await within(e.closed, 2000, 'refusal').finally(() => e.kill());
      assert.equal(exit.description, 'was not connected: ws:// (unencrypted) is allowed only to this machine, but "evil.localhost" resolves to 203.0.113.7');
      assert.match(exit.detail, /^ Use wss:\/\/ or https:\/\/ to reach another machine/);
      assert.equal(exit.failedToOpen, true);
      assert.deepEqual(r.asked, ['evil.localhost']);
      assert.equal(s.connections, 0);
    } finally {
      await close(s.wss);
    }
  });

  it('connects to the address it checked, not to a second lookup of the name', async () => {
    // Only 127.0.0.2 listens: a second lookup of the name (by the system) could not reach it.
    const s = await listen('127.0.0.2');
    try {
      const r = resolver({ 'box.localhost': ['127.0.0.2'] });
      const e = endpoint(`ws://box.localhost:${s.port}/acp`, r);
      const connected = new Promise<string | undefined>((resolve) => s.wss.once('connection', (_ws, req) => resolve(req.headers.host)));
      assert.equal(await Promise.race([connected, e.closed.then((x) => `closed: ${x.description}`)]), `box.localhost:${s.port}`);
      e.kill();
      assert.deepEqual(r.asked, ['box.localhost']);
    } finally {
      await close(s.wss);
    }
  });

  it('an unknown host name (wss://…invalid): said as not found, through the given resolver', async () => {
    const r = resolver({});
    const e = endpoint('wss://acp-no-such-host.invalid/acp', r);
    const exit = await within(e.closed, 2000, 'failure').finally(() => e.kill());
    assert.equal(exit.description, 'could not connect: the host name "acp-no-such-host.invalid" was not found (DNS)');
    assert.match(exit.detail, /Check the host in the agent's "url"/);
    assert.deepEqual(r.asked, ['acp-no-such-host.invalid']);
  });
});
