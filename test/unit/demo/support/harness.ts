// Shared set-up for the Demo Agent tests: a temp folder, a started client, a session.

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DemoClient, initV1, initV2, type ClientOptions } from './demoClient';
import { SchemaCheck } from './schemaCheck';

let shared: SchemaCheck | undefined;
/** One compiled checker for all tests (compiling the schemas takes a moment). */
export function schemaCheck(): SchemaCheck {
  shared ??= new SchemaCheck();
  return shared;
}

export interface Started {
  client: DemoClient;
  sessionId: string;
  cwd: string;
  newSession: Record<string, unknown>;
  init: Record<string, unknown>;
}

export interface StartOptions extends ClientOptions {
  version: 1 | 2;
  clientCapabilities?: object;
  /** Overrides the initialize params. */
  initialize?: object;
  cwd?: string;
}

const cleanups: (() => Promise<void> | void)[] = [];

export function tempDir(prefix = 'acp-demo-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export async function startClient(options: StartOptions): Promise<{ client: DemoClient; init: Record<string, unknown> }> {
  const client = new DemoClient(schemaCheck(), options);
  cleanups.push(() => client.close());
  const params = options.initialize ?? (options.version === 1 ? initV1(options.clientCapabilities) : initV2());
  const init = (await client.request('initialize', params)) as Record<string, unknown>;
  return { client, init };
}

export async function start(options: StartOptions): Promise<Started> {
  const cwd = options.cwd ?? tempDir();
  const { client, init } = await startClient(options);
  const from = client.received.length;
  const newSession = (await client.request('session/new', options.version === 1 ? { cwd, mcpServers: [] } : { cwd })) as Record<string, unknown>;
  // The commands follow the answer; wait for them so that a test's turn starts from a quiet line.
  await client.waitFor((m) => (m.params as { update?: { sessionUpdate?: string } } | undefined)?.update?.sessionUpdate === 'available_commands_update', from);
  return { client, sessionId: newSession.sessionId as string, cwd, newSession, init };
}

/** Stops every agent and removes every temp folder made since the last call. */
export async function cleanup(): Promise<void> {
  for (const c of cleanups.splice(0).reverse()) await c();
}

/** Answers permission requests with `optionId` (or the cancelled outcome) and records them. */
export function answerPermissions(client: DemoClient, optionId: string | 'cancelled', seen: Record<string, unknown>[] = []): Record<string, unknown>[] {
  client.onAgentRequest = (m) => {
    if (m.method !== 'session/request_permission') throw new Error(`unexpected ${m.method}`);
    seen.push(m.params as Record<string, unknown>);
    return optionId === 'cancelled' ? { outcome: { outcome: 'cancelled' } } : { outcome: { outcome: 'selected', optionId } };
  };
  return seen;
}

/** The v2 turn end: idle with a stop reason. */
export function isIdleWithStop(m: { method?: string; params?: unknown }): boolean {
  const u = (m.params as { update?: { sessionUpdate?: string; state?: string; stopReason?: unknown } } | undefined)?.update;
  return m.method === 'session/update' && u?.sessionUpdate === 'state_update' && u.state === 'idle' && u.stopReason != null;
}

/** Every plan_update's plan, by planId, in arrival order. */
export function plansById(updates: Record<string, unknown>[]): Map<string, Record<string, unknown>[]> {
  const out = new Map<string, Record<string, unknown>[]>();
  for (const u of updates) {
    if (u.sessionUpdate !== 'plan_update') continue;
    const plan = u.plan as Record<string, unknown>;
    const list = out.get(plan.planId as string) ?? [];
    list.push(plan);
    out.set(plan.planId as string, list);
  }
  return out;
}

export function statuses(plan: Record<string, unknown> | undefined): string[] {
  return ((plan?.entries as { status: string }[]) ?? []).map((e) => e.status);
}
