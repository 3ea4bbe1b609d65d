// A remote agent whose server refuses the credentials (HTTP 401/403 on the WebSocket upgrade or on
// streamable HTTP's `initialize`) is not a crash to retry: the real WebSocketEndpoint and
// HttpEndpoint against real local servers answering 401/403, driven by the AgentSupervisor (the
// first connection an in-process agent: support/fakeEndpoint.ts). After the drop, the first
// reconnect that is refused ends it at once: status failed, one error report saying the
// credentials were refused and what to do, no restart scheduled. A refused connection (nothing
// listens) is still tried again (a server coming back).
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type { AgentDefinition } from '../../../src/agents/agentConfig';
import type { AgentEndpoint } from '../../../src/agents/agentEndpoint';
import { AgentSupervisor } from '../../../src/agents/supervisor';
import { WebSocketEndpoint } from '../../../src/agents/wsEndpoint';
import { HttpEndpoint } from '../../../src/agents/httpEndpoint';
import { english } from '../../../src/common/l10n';
import { remoteWords } from '../../../src/ui/remoteWords';
import { FakeEndpointHost } from './support/fakeEndpoint';

const def: AgentDefinition = { id: 'agent:remote', name: 'Build Box', command: 'not-run', args: [], env: {}, protocol: 'auto', builtIn: false };

/** The first endpoint is the in-process agent; the next ones come from `next` (a real remote endpoint). */
class RemoteHost extends FakeEndpointHost {
  next: (() => AgentEndpoint) | undefined;
  override openEndpoint(d: AgentDefinition): ReturnType<FakeEndpointHost['openEndpoint']> {
    return (this.next ? this.next() : super.openEndpoint(d)) as ReturnType<FakeEndpointHost['openEndpoint']>;
  }
}

const options = (url: string) => ({
  url,
  maxMessageBytes: 64 * 1024,
  describe: (r: Parameters<typeof remoteWords>[0]) => remoteWords(r, english),
  prepare: () => Promise.resolve({ headers: { Authorization: 'Bearer t' } }),
});

async function wsRefusing(status: number): Promise<{ url: string; close(): Promise<void> }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, verifyClient: (_i, cb) => cb(false, status) });
  await new Promise((r) => wss.once('listening', r));
  return { url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/acp`, close: () => new Promise((r) => wss.close(() => r())) };
}

async function httpRefusing(status: number): Promise<{ url: string; close(): Promise<void> }> {
  const srv = http.createServer((req, res) => {
    req.resume();
    res.writeHead(status).end();
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}/acp`, close: () => new Promise((r) => srv.close(() => r())) };
}

describe('AgentSupervisor: a remote server that refuses the credentials (real local servers)', () => {
  let host: RemoteHost;
  let sup: AgentSupervisor;
  const closers: (() => Promise<void>)[] = [];

  beforeEach(() => {
    host = new RemoteHost();
    sup = new AgentSupervisor(def, host);
  });
  afterEach(async () => {
    sup.dispose();
    await host.cleanup();
    for (const c of closers.splice(0)) await c();
  });

  /** Starts on the in-process agent, drops it, and runs the scheduled reconnect against `open`. */
  async function reconnectTo(open: () => AgentEndpoint): Promise<number> {
    await sup.start();
    await sup.newSession(process.cwd());
    const dropped = host.mark();
    host.endpoint.drop();
    await host.waitFor((x) => x.type === 'lifecycle' && x.e.kind === 'status' && x.e.status === 'restarting', dropped);
    host.next = open;
    const from = host.mark();
    host.scheduled[host.scheduled.length - 1]!.fn();
    await host.waitFor(
      (x) =>
        x.type === 'lifecycle' &&
        x.e.kind === 'status' &&
        (x.e.status === 'failed' || (x.e.status === 'restarting' && !!x.e.detail?.includes('could not connect'))),
      from,
    );
    return from;
  }

  for (const [transport, status] of [
    ['WebSocket', 401],
    ['WebSocket', 403],
    ['streamable HTTP', 401],
  ] as const) {
    it(`${transport} ${status}: failed at once, said with what to do, no restart loop`, async () => {
      const srv = transport === 'WebSocket' ? await wsRefusing(status) : await httpRefusing(status);
      closers.push(srv.close);
      const scheduledBefore = host.scheduled.length;
      const from = await reconnectTo(() => (transport === 'WebSocket' ? new WebSocketEndpoint(options(srv.url)) : new HttpEndpoint(options(srv.url))));
      assert.equal(sup.status, 'failed', 'not restarting again');
      await host.waitFor((x) => x.type === 'report' && x.severity === 'error', from);
      assert.equal(host.scheduled.filter((s) => !s.disposed).length, 0, `no restart scheduled (had ${scheduledBefore})`);
      const errors = host.reports(from).filter((r) => r.severity === 'error');
      assert.equal(errors.length, 1, JSON.stringify(host.reports(from)));
      assert.match(errors[0]!.message, new RegExp(`the server refused the credentials \\(HTTP ${status}\\)`));
      assert.match(errors[0]!.message, /ACP: Set Agent Secret/);
    });
  }

  it('a refused connection (nothing listens) is still tried again', async () => {
    const srv = await wsRefusing(401);
    await srv.close();
    await reconnectTo(() => new WebSocketEndpoint(options(srv.url)));
    assert.equal(sup.status, 'restarting');
  });
});
