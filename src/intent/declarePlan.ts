// The seed's `declare_plan` tool: with an agent guard, the model writes its intent plan through a
// built-in `declare_plan` tool call before it uses any other tool. Such a call is a source of an
// intent plan just like our `_intent` plan type: this turns it into the same `_intent` payload.
//
//   tool:   the call's tool name (resolveToolName: `name`, `_meta.toolName`, …) is `declare_plan`,
//           or, for a call that names none, its title is `declare_plan` or starts with it followed
//           by a space, "(" or ":" (as inferToolName reads titles);
//   plan:   the call's `rawInput`: the plan itself ({version, goal, user, steps}) or `{plan: {…}}`;
//   token:  the call's `rawOutput` once it has one (the guard's answer, POST /v1/plans): a compact
//           JWS string, or an object with a string `token`, `intentToken` or `intent_token`.
// The payload's planId is DECLARED_PLAN_ID, so a later declaration replaces the earlier plan in
// the Plans view (with its history), as a new plan with a new token would. It also names the call
// (`declaredBy`). Pure and bounded: fields are kept for at most MAX_CALLS calls of MAX_SESSIONS sessions, and a
// plan input only while it has the shape of a plan and fits MAX_PLAN_CHARS.
import type { JsonObject, Meta, Patch, SessionEvent, ToolCallFields } from '../protocol/domain';
import { resolveToolName } from './toolName';

export const DECLARE_PLAN_TOOL = 'declare_plan';
export const DECLARED_PLAN_ID = 'declare_plan';
const MAX_CALLS = 64;
/** Sessions whose calls are kept (the oldest go first): calls are seen for every session, intent plan or not. */
const MAX_SESSIONS = 256;
const MAX_PLAN_CHARS = 256 * 1024;
const JWS_RE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+$/;
const MAX_TOKEN = 64 * 1024;

interface Seen {
  name?: string;
  meta?: Meta;
  title?: string;
  plan?: Record<string, unknown>;
  token?: string;
  status?: string;
}

/** The `_intent` plan update a declaration amounts to, applied like one the agent sent. */
export function declaredPlanUpdate(sessionId: string, payload: Record<string, unknown>): SessionEvent {
  return { sessionId, kind: 'plan_update', plan: { type: 'unknown', planId: DECLARED_PLAN_ID, rawType: '_intent', raw: payload as JsonObject } };
}

/** The key of a session's declarations (agent and session). */
export function declaredKey(agentId: string, sessionId: string): string {
  return `${agentId}\u0000${sessionId}`;
}

export class DeclaredPlans {
  /** Per session: the calls seen (oldest first) and the last payload sent, as JSON. */
  private readonly sessions = new Map<string, { calls: Map<string, Seen>; last?: string }>();

  /**
   * Records a tool-call event. Undefined: not (known to be) a declare_plan call. Otherwise the
   * `_intent` payload it declares when that changed (the plan, or its token arrived).
   */
  observe(sessionKey: string, toolCallId: string, f: ToolCallFields): { payload?: Record<string, unknown> } | undefined {
    let s = this.sessions.get(sessionKey);
    if (!s) {
      this.sessions.set(sessionKey, (s = { calls: new Map() }));
      if (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
    }
    let seen = s.calls.get(toolCallId);
    if (!seen) {
      seen = {};
      s.calls.set(toolCallId, seen);
      if (s.calls.size > MAX_CALLS) s.calls.delete(s.calls.keys().next().value!);
    }
    merge(seen, f);
    const tool = toolOf(seen);
    if (tool !== undefined && tool !== DECLARE_PLAN_TOOL) {
      s.calls.delete(toolCallId); // another tool: nothing to keep
      return undefined;
    }
    if (tool === undefined) return undefined;
    if (!seen.plan) return {};
    const payload: Record<string, unknown> = { type: '_intent', planId: DECLARED_PLAN_ID, plan: seen.plan };
    if (seen.token) payload.token = seen.token;
    payload.declaredBy = { tool: DECLARE_PLAN_TOOL, toolCallId, ...(seen.status ? { status: seen.status } : {}) };
    const key = JSON.stringify([seen.plan, seen.token ?? null]);
    if (key === s.last) return {};
    s.last = key;
    return { payload };
  }

  /** Forgets a session, or with `prefix` every session whose key starts with it (an agent's). */
  forget(sessionKey: string, prefix = false): void {
    if (!prefix) this.sessions.delete(sessionKey);
    else for (const k of [...this.sessions.keys()]) if (k.startsWith(sessionKey)) this.sessions.delete(k);
  }
}

function merge(seen: Seen, f: ToolCallFields): void {
  if (f.name !== undefined) seen.name = str(f.name);
  if (f._meta !== undefined) seen.meta = f._meta ?? undefined;
  if (f.title !== undefined) seen.title = str(f.title);
  if (f.status !== undefined) seen.status = str(f.status);
  if (f.rawInput !== undefined) seen.plan = planOf(f.rawInput);
  if (f.rawOutput !== undefined) seen.token = tokenOf(f.rawOutput);
}

function str(v: Patch<string>): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function toolOf(seen: Seen): string | undefined {
  const named = resolveToolName(seen.name, seen.meta);
  if (named !== undefined) return named;
  const t = seen.title?.slice(0, 100).trim() ?? '';
  const next = t.charAt(DECLARE_PLAN_TOOL.length);
  return t.startsWith(DECLARE_PLAN_TOOL) && (next === '' || next === ' ' || next === '(' || next === ':') ? DECLARE_PLAN_TOOL : undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The plan of a declare_plan input, when it has the shape of one and is not oversized. */
function planOf(input: unknown): Record<string, unknown> | undefined {
  const plan = isObject(input) && isObject(input.plan) ? input.plan : input;
  if (!isObject(plan) || !Array.isArray(plan.steps) || plan.steps.length > 1000) return undefined;
  try {
    return JSON.stringify(plan).length <= MAX_PLAN_CHARS ? plan : undefined;
  } catch {
    return undefined;
  }
}

function tokenOf(output: unknown): string | undefined {
  let t: unknown = output;
  if (isObject(output)) t = output.token ?? output.intentToken ?? output.intent_token;
  return typeof t === 'string' && t.length <= MAX_TOKEN && JWS_RE.test(t.trim()) ? t.trim() : undefined;
}
