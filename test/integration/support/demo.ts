// Driving the built-in Demo Agent through the extension's own commands, waiting on events.
import { sessionKey } from '../../../src/state/sessionStore';
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { TestApi as AcpPlansApi } from './ext';
import { api, waitFor } from './ext';

export interface SessionRef {
  agentId: string;
  sessionId: string;
}

/** Sets a setting in the user (global) scope and returns a function that restores it. */
export async function withSetting(key: string, value: unknown): Promise<() => Promise<void>> {
  const c = vscode.workspace.getConfiguration('acp');
  const before = c.inspect(key)?.globalValue;
  await c.update(key, value, vscode.ConfigurationTarget.Global);
  return async () => {
    await vscode.workspace.getConfiguration('acp').update(key, before, vscode.ConfigurationTarget.Global);
  };
}

/** Stops the Demo Agent and forgets its sessions, plans and transcripts, so tests start clean. */
export async function resetDemo(): Promise<void> {
  const a = await api();
  const sup = a.internals.agents.get('demo');
  if (sup && sup.status !== 'stopped') await vscode.commands.executeCommand('acp.stopAgent', 'demo');
  for (const s of a.internals.store.sessions('demo')) {
    a.internals.plans.clearSession('demo', s.sessionId);
    a.internals.transcript.removeSession(sessionKey('demo', s.sessionId));
    a.internals.store.removeSession('demo', s.sessionId);
  }
  a.internals.plans.clearAgent('demo');
  a.internals.store.removeAgent('demo');
}

/** Starts the Demo Agent (after a reset) with the given protocol; returns the new session. */
export async function startDemo(protocol: '1' | '2'): Promise<{ ref: SessionRef; a: AcpPlansApi; restore: () => Promise<void> }> {
  const a = await api();
  await resetDemo();
  const r1 = await withSetting('demo.protocol', protocol);
  const r2 = await withSetting('demo.stepDelayMs', 0);
  const ref = await vscode.commands.executeCommand<SessionRef | undefined>('acp.startAgent', 'demo');
  assert.ok(ref, 'acp.startAgent returned no session');
  return {
    ref,
    a,
    restore: async () => {
      await resetDemo();
      await r2();
      await r1();
    },
  };
}

export function session(a: AcpPlansApi, ref: SessionRef) {
  return a.internals.store.session(ref.agentId, ref.sessionId);
}

/** Resolves when the session's turn is over (idle with a stop reason), returning the stop reason. */
export async function turnEnd(a: AcpPlansApi, ref: SessionRef, ms = 20000): Promise<string> {
  const done = () => {
    const s = session(a, ref);
    return !!s && s.turnState === 'idle' && !!s.stopReason;
  };
  await waitFor(a.internals.store.onDidChange, done, ms, 'the end of the turn');
  return session(a, ref)!.stopReason!;
}

/** Resolves with the first pending permission request of the session. */
export async function nextPermission(a: AcpPlansApi, ref: SessionRef, ms = 20000) {
  const b = a.internals.broker;
  await waitFor(a.internals.store.onDidChange, () => b.pendingFor(ref.sessionId).length > 0, ms, 'a permission request');
  return b.pendingFor(ref.sessionId)[0]!;
}

export async function prompt(ref: SessionRef, text: string): Promise<void> {
  const ok = await vscode.commands.executeCommand<boolean>('acp.sendPrompt', ref, text);
  assert.strictEqual(ok, true, 'acp.sendPrompt failed');
}
