// Building blocks of the hostile battery: permission requests of either protocol version, client
// service calls recorded with their answers, and the payloads (deep, huge, many).
import { describeReply, type PhaseParams, type ProbeClass, type ProbeRecord, type Results } from './results';
import { within, type Obj, type Reply, type Wire } from './wire';

export interface Option {
  optionId: string;
  name: string;
  kind: string;
}

/** What a phase works with: the wire, where it records, the session of the turn. */
export interface Ctx {
  readonly wire: Wire;
  readonly results: Results;
  readonly version: 1 | 2;
  readonly sessionId: string;
  /** Every session this agent created on this connection. */
  readonly sessions: readonly string[];
  readonly params: PhaseParams;
  /** The client sent `session/cancel` for this turn's session. */
  cancelled(): boolean;
}

/** Answers the client must give at once (refusals); a silent client is recorded as such. */
export const PROMPT_MS = 10_000;

export const STANDARD_OPTIONS: Option[] = [
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];

export function probeTitle(probe: string, what: string): string {
  return `[probe ${probe}] ${what}`;
}

export function update(sessionId: string, u: Obj): Obj {
  return { jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: u } };
}

export function messageChunk(ctx: Ctx, sessionId: string, messageId: string, text: string): Obj {
  return update(sessionId, { sessionUpdate: 'agent_message_chunk', ...(ctx.version === 2 ? { messageId } : {}), content: { type: 'text', text } });
}

/** Tells the test (through the session's title) that every probe of the phase was sent. */
export function signal(ctx: Ctx, title: string): Promise<void> {
  return ctx.wire.send(update(ctx.sessionId, { sessionUpdate: 'session_info_update', title }));
}

export interface PermissionProbe {
  probe: string;
  cls: ProbeClass;
  what: string;
  options?: Option[];
  /** A command subject (v2) / an execute tool call with this `rawInput.command` (v1). */
  command?: string;
  cwd?: string;
  /** Extra tool call fields (v1 toolCall, v2 tool_call subject). */
  toolCall?: Obj;
  sessionId?: string;
}

/** A permission request's line, and the promise of its recorded answer. */
export function permission(ctx: Ctx, p: PermissionProbe): { line: string; done: Promise<ProbeRecord> } {
  const options = p.options ?? STANDARD_OPTIONS;
  const sessionId = p.sessionId ?? ctx.sessionId;
  const title = probeTitle(p.probe, p.what);
  const toolCall: Obj = {
    toolCallId: `call-${p.probe}`,
    title,
    kind: 'execute',
    status: 'pending',
    ...(p.command !== undefined ? { rawInput: { command: p.command } } : {}),
    ...p.toolCall,
  };
  const params =
    ctx.version === 1
      ? { sessionId, toolCall, options }
      : {
          sessionId,
          title,
          options,
          subject:
            p.command !== undefined && p.toolCall === undefined
              ? { type: 'command', command: p.command, cwd: p.cwd ?? ctx.params.workspace }
              : { type: 'tool_call', toolCall },
        };
  const t0 = Date.now();
  const { line, reply } = ctx.wire.requestLine('session/request_permission', params, 'perm');
  const done = reply.then((r) => ctx.results.add(permissionRecord(p, options, r, Date.now() - t0)));
  return { line, done };
}

function permissionRecord(p: PermissionProbe, options: Option[], r: Reply, ms: number): ProbeRecord {
  const base = { probe: p.probe, cls: p.cls, sent: `${p.what}${p.command ? `: ${p.command}` : ''}`, ms };
  const outcome = (r.result as { outcome?: { outcome?: string; optionId?: string } } | undefined)?.outcome;
  if (outcome?.outcome === 'selected' && typeof outcome.optionId === 'string') {
    const kinds = [...new Set(options.filter((o) => o.optionId === outcome.optionId).map((o) => o.kind))].join('|');
    return { ...base, answer: `selected ${outcome.optionId}`, optionId: outcome.optionId, optionKind: kinds || 'not one of the options' };
  }
  if (outcome?.outcome === 'cancelled') return { ...base, answer: 'cancelled' };
  return { ...base, answer: describeReply(r) };
}

/** Sends a client request and records its answer; `promptly`: the client must answer within PROMPT_MS. */
export async function call(
  ctx: Ctx,
  probe: string,
  cls: ProbeClass,
  sent: string,
  method: string,
  params: Obj,
  promptly = true,
): Promise<{ record: ProbeRecord; reply: Reply | undefined }> {
  const t0 = Date.now();
  const reply = ctx.wire.request(method, { sessionId: ctx.sessionId, ...params }, cls);
  const r = promptly ? await within(reply, PROMPT_MS) : await reply;
  const record = ctx.results.add({ probe, cls, sent, answer: describeReply(r, PROMPT_MS), ms: Date.now() - t0 });
  return { record, reply: r };
}

/** `[[[…]]]` nested `depth` deep (a string built without recursion). */
export function deepArray(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}

/** An object nested `depth` deep: `{"a":{"a":…}}`. */
export function deepObject(depth: number): Obj {
  let o: Obj = { leaf: true };
  for (let i = 1; i < depth; i++) o = { a: o };
  return o;
}

/** Sends `lines` in writes of `per` lines each (each write waits for the pipe to drain). */
export async function sendMany(ctx: Ctx, count: number, lineOf: (i: number) => string, per = 1000): Promise<void> {
  for (let i = 0; i < count; i += per) {
    let text = '';
    for (let j = i; j < Math.min(count, i + per); j++) text += lineOf(j);
    await ctx.wire.write(text);
  }
}
