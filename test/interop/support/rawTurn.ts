// One prompt turn of a real agent through the raw NDJSON driver (no client code of ours):
// fake model + fresh workspace + agent process, v1 initialize (fs, terminal, plan opt-in),
// session/new, session/prompt, optional session/cancel mid-turn. Traffic is recorded.
import { readdirSync, rmSync } from 'node:fs';
import { startFakeModel, type FakeModel, type Scenario } from './fakeModel';
import { launchOf, tempDir, type AgentName } from './agents';
import { RawClient, type Msg } from './rawClient';
import { createServices, type InteropServices } from './services';
import { rawHandlers, type PermissionPolicy, type RawPermission } from './rawHandlers';
import { writeRecording } from './recorder';

export interface RawTurnOptions {
  agent: AgentName;
  scenario?: (cwd: string) => Scenario;
  policy?: PermissionPolicy;
  /** Send session/cancel once this returns true for a received message (or the model step starts). */
  cancelWhen?: { modelStep: number } | { message: (m: Msg) => boolean };
  prompt?: string;
  /** Name of the recording (default: the agent name). */
  record?: string;
  /** Speak v2 (initialize with `info`; the turn ends at `state_update` idle + stopReason). */
  v2?: boolean;
}

export interface RawTurn {
  client: RawClient;
  model: FakeModel;
  services: InteropServices;
  permissions: RawPermission[];
  cwd: string;
  init: Record<string, unknown>;
  session: Record<string, unknown> & { sessionId: string };
  stopReason: string;
  turnMs: number;
  /** The workspace's file names after the turn (the workspace itself is removed). */
  files: string[];
}

function isIdleEnd(m: Msg, sessionId: string): boolean {
  const p = m.params as { sessionId?: string; update?: { sessionUpdate?: string; state?: string; stopReason?: string | null } } | undefined;
  return (
    m.method === 'session/update' &&
    p?.sessionId === sessionId &&
    p.update?.sessionUpdate === 'state_update' &&
    p.update.state === 'idle' &&
    p.update.stopReason != null
  );
}

export async function rawTurn(opts: RawTurnOptions): Promise<RawTurn> {
  const cwd = tempDir('ws');
  const model = await startFakeModel(opts.scenario ? opts.scenario(cwd) : { steps: [] });
  const launch = launchOf(opts.agent, model.url, cwd);
  const services = createServices(cwd);
  const permissions: RawPermission[] = [];
  const client = new RawClient(launch, rawHandlers(services, opts.policy ?? 'allow', permissions));
  const files: string[] = [];
  try {
    const init = await client.request<Record<string, unknown>>(
      'initialize',
      opts.v2
        ? { protocolVersion: 2, info: { name: 'acp-plans-interop', version: '0.0.0' }, capabilities: {} }
        : {
            protocolVersion: 1,
            clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true, plan: {} },
            clientInfo: { name: 'acp-plans-interop', version: '0.0.0' },
          },
    );
    const session = await client.request<Record<string, unknown> & { sessionId: string }>('session/new', { cwd, mcpServers: [] });
    const started = Date.now();
    const sent = client.request<{ stopReason?: string }>('session/prompt', {
      sessionId: session.sessionId,
      prompt: [{ type: 'text', text: opts.prompt ?? 'Run the interop task.' }],
    });
    // v2: the prompt answer only acknowledges; the turn ends at idle with a stopReason.
    const prompt = opts.v2
      ? sent
          .then(() => client.waitFor((m) => isIdleEnd(m, session.sessionId), 'idle state_update'))
          .then((m) => ({ stopReason: String((m.params as { update: { stopReason: string } }).update.stopReason) }))
      : sent.then((r) => ({ stopReason: String(r.stopReason) }));
    const cancel = opts.cancelWhen;
    if (cancel) {
      const trigger = 'modelStep' in cancel ? model.stepStarted(cancel.modelStep) : client.waitFor(cancel.message, 'the cancel trigger');
      await Promise.race([trigger, prompt]);
      client.notify('session/cancel', { sessionId: session.sessionId });
    }
    const { stopReason } = await prompt;
    const turnMs = Date.now() - started;
    files.push(...readdirSync(cwd));
    return { client, model, services, permissions, cwd, init, session, stopReason, turnMs, files };
  } finally {
    const scrubs: [string, string][] = [
      [cwd, '/workspace'],
      [String(launch.env.HOME), '/home/agent'],
      [model.url, 'http://127.0.0.1:PORT'],
    ];
    writeRecording(
      opts.record ?? opts.agent,
      { agent: opts.agent, driver: 'raw', source: 'test/interop (raw NDJSON driver)' },
      client.traffic.map((t) => ({ dir: t.dir, msg: t.msg })),
      scrubs,
    );
    await client.close();
    services.dispose();
    await model.close();
    launch.cleanup();
    rmSync(cwd, { recursive: true, force: true, maxRetries: 5 });
  }
}
