// A local HTTP server on 127.0.0.1 for the registry tests: routes answer with a body (optionally
// lying about its length, cut short, or stalling), and every request is recorded.
import * as http from 'http';
import type { AddressInfo } from 'net';

export interface Route {
  status?: number;
  body?: Buffer | string;
  headers?: Record<string, string>;
  /** Send this many bytes of the body, then close the connection (the announced length stays). */
  cutAfter?: number;
  /** Send this many bytes, then keep the connection open without sending more. */
  stallAfter?: number;
  /** Omit Content-Length (chunked). */
  chunked?: boolean;
  handler?: (req: http.IncomingMessage, res: http.ServerResponse) => void;
}

export class TestServer {
  readonly routes = new Map<string, Route>();
  readonly requests: { path: string; headers: http.IncomingHttpHeaders }[] = [];
  private readonly open = new Set<import('net').Socket>();
  private readonly waiters: { path: string; resolve: () => void }[] = [];
  private server = http.createServer((req, res) => this.handle(req, res));

  async start(): Promise<this> {
    this.server.on('connection', (s) => {
      this.open.add(s);
      s.on('close', () => this.open.delete(s));
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return this;
  }
  get base(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  url(p: string): string {
    return this.base + p;
  }

  /** Resolves once a request for `path` has arrived (at once if one already has). */
  requested(path: string): Promise<void> {
    if (this.requests.some((r) => r.path === path)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ path, resolve }));
  }

  async stop(): Promise<void> {
    for (const s of this.open) s.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0]!;
    this.requests.push({ path, headers: req.headers });
    for (const w of this.waiters.filter((x) => x.path === path)) {
      this.waiters.splice(this.waiters.indexOf(w), 1);
      w.resolve();
    }
    const route = this.routes.get(path);
    if (!route) {
      res.statusCode = 404;
      res.end('not found');
      return;
    }
    if (route.handler) {
      route.handler(req, res);
      return;
    }
    const body = Buffer.from(route.body ?? '');
    res.statusCode = route.status ?? 200;
    for (const [k, v] of Object.entries(route.headers ?? {})) res.setHeader(k, v);
    if (!route.chunked) res.setHeader('content-length', String(body.length));
    if (route.cutAfter !== undefined) {
      res.flushHeaders();
      res.write(body.subarray(0, route.cutAfter), () => res.socket?.destroy());
      return;
    }
    if (route.stallAfter !== undefined) {
      res.flushHeaders();
      res.write(body.subarray(0, route.stallAfter));
      return;
    }
    if (route.chunked) {
      res.write(body);
      res.end();
    } else res.end(body);
  }
}
