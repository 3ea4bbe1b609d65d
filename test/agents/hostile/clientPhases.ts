// Phases of the battery against the v1 client services (terminals, file reads and writes), plus
// deep lines, cross-agent sessions and secrets in what the agent prints.
import * as path from 'node:path';
import type { ProbeRecord } from './results';
import { call, deepArray, deepObject, messageChunk, permission, PROMPT_MS, signal, update, type Ctx } from './probes';
import { within } from './wire';

/** Secrets the agent prints on stderr; none may reach the extension's logs or trace. */
export const STDERR_SECRETS = {
  flag: 'sk-hostile-flag-value-7f3a9c',
  bearer: 'hostile-bearer-token-0d8e2b',
  urlPath: 'sk-hostilepathsecret4b1c9e7d2a',
  query: 'hostile-query-secret-91ab',
};

export async function client(ctx: Ctx): Promise<void> {
  const later: Promise<ProbeRecord>[] = [];
  printSecrets(ctx);
  await terminals(ctx, later);
  await writesAndReads(ctx, later);
  await depth(ctx, later);
  crossSessions(ctx);
  await signal(ctx, 'hostile: waiting (client)');
  await Promise.all(later);
}

function printSecrets(ctx: Ctx): void {
  const s = STDERR_SECRETS;
  process.stderr.write(
    `connecting with --api-key ${s.flag}\nheader: Authorization: Bearer ${s.bearer}\nGET https://api.example.com/v1/keys/${s.urlPath}?key=${s.query}\n`,
  );
  ctx.results.add({
    probe: 'trace.stderr-secrets',
    cls: 'trace',
    sent: 'secrets on stderr (flag value, bearer token, URL path and query)',
    answer: 'sent',
    ms: 0,
  });
}

async function terminals(ctx: Ctx, later: Promise<ProbeRecord>[]): Promise<void> {
  const { canary, workspace } = ctx.params;
  const touch = (name: string) => ({ command: 'touch', args: [path.join(canary, name)] });
  await call(ctx, 'terminals.cwd-root', 'terminals', 'terminal/create with cwd "/"', 'terminal/create', { ...touch('marker-cwd-root'), cwd: '/' });
  await call(ctx, 'terminals.cwd-dotdot', 'terminals', 'terminal/create with cwd <workspace>/..', 'terminal/create', {
    ...touch('marker-cwd-dotdot'),
    cwd: `${workspace}/..`,
  });
  await call(ctx, 'terminals.ld-preload', 'terminals', 'terminal/create with LD_PRELOAD', 'terminal/create', {
    ...touch('marker-ld-preload'),
    env: [{ name: 'LD_PRELOAD', value: path.join(canary, 'evil.so') }],
  });
  await call(ctx, 'terminals.node-options', 'terminals', 'terminal/create with NODE_OPTIONS', 'terminal/create', {
    ...touch('marker-node-options'),
    env: [{ name: 'NODE_OPTIONS', value: `--require ${path.join(canary, 'evil.js')}` }],
  });
  await call(ctx, 'terminals.path-env', 'terminals', 'terminal/create with PATH', 'terminal/create', {
    ...touch('marker-path'),
    env: [{ name: 'PATH', value: canary }],
  });

  // One terminal the user allows (the test clicks "Allow"), then its id from elsewhere.
  const { reply } = await call(
    ctx,
    'terminals.approved',
    'terminals',
    'terminal/create echo hostile-approved (the user allows it)',
    'terminal/create',
    { command: 'echo', args: ['hostile-approved'] },
    false,
  );
  const terminalId = (reply?.result as { terminalId?: string } | undefined)?.terminalId;
  if (terminalId) {
    await call(ctx, 'terminals.own-wait', 'terminals', 'terminal/wait_for_exit of its own terminal', 'terminal/wait_for_exit', { terminalId });
    const other = ctx.sessions.find((s) => s !== ctx.sessionId);
    if (other)
      await call(ctx, 'terminals.other-session', 'terminals', 'terminal/output of its terminal, from its other session', 'terminal/output', {
        terminalId,
        sessionId: other,
      });
    if (ctx.params.otherAgentSession)
      await call(ctx, 'terminals.other-agent-session', 'terminals', "terminal/output of its terminal, with the other agent's session", 'terminal/output', {
        terminalId,
        sessionId: ctx.params.otherAgentSession,
      });
    await call(ctx, 'terminals.guessed-id', 'terminals', 'terminal/output of a guessed id', 'terminal/output', { terminalId: 'term_1' });
    await call(ctx, 'terminals.own-release', 'terminals', 'terminal/release of its own terminal', 'terminal/release', { terminalId });
  }
  // 100 terminals at once: nothing may run without a click, and the count is capped.
  const t0 = Date.now();
  for (let i = 0; i < 100; i++) {
    later.push(
      ctx.wire.request('terminal/create', { sessionId: ctx.sessionId, ...touch(`marker-flood-${i}`) }, 'flood').then((r) =>
        ctx.results.add({
          probe: `terminals.flood-${i}`,
          cls: 'terminals',
          sent: `terminal/create touch marker-flood-${i} (one of 100)`,
          answer: r.error ? `error ${r.error.code} ${r.error.message.slice(0, 200)}` : `result ${JSON.stringify(r.result)}`,
          ms: Date.now() - t0,
        }),
      ),
    );
  }
}

async function writesAndReads(ctx: Ctx, later: Promise<ProbeRecord>[]): Promise<void> {
  const { canary, workspace, danglingLink, fifo, zeroLink } = ctx.params;
  const hook = `#!/bin/sh\ntouch ${path.join(canary, 'hook-ran')}\n`;
  // Writes that run code later: asked, never done silently (the test never allows them).
  for (const [probe, file] of [
    ['writes.git-hook', '.git/hooks/pre-commit'],
    ['writes.vscode-tasks', '.vscode/tasks.json'],
    ['writes.workflow', '.github/workflows/ci.yml'],
  ] as const) {
    later.push(
      call(ctx, probe, 'writes', `fs/write_text_file ${file}`, 'fs/write_text_file', { path: path.join(workspace, file), content: hook }, false).then(
        (c) => c.record,
      ),
    );
  }
  const outside = path.join(canary, 'written-through-dotdot.txt');
  const writes: [string, string, string][] = [
    ['writes.dangling-symlink', danglingLink, 'through a dangling link to a file outside'],
    ['writes.absolute-outside', path.join(canary, 'written-directly.txt'), 'an absolute path outside'],
    ['writes.dotdot', `${workspace}/${path.relative(workspace, outside)}`, 'a path with .. leading outside'],
  ];
  for (const [probe, file, what] of writes)
    await call(ctx, probe, 'writes', `fs/write_text_file ${what}`, 'fs/write_text_file', { path: file, content: 'escaped\n' });
  const reads: [string, string][] = [
    ['reads.proc-environ', '/proc/self/environ'],
    ['reads.dev-zero', '/dev/zero'],
    ['reads.fifo', fifo],
    ['reads.zero-link', zeroLink],
    ['reads.outside', path.join(canary, 'canary.txt')],
  ];
  for (const [probe, file] of reads) await call(ctx, probe, 'reads', `fs/read_text_file ${file}`, 'fs/read_text_file', { path: file });
}

/** A line nested 1,000,000 deep and a deep request, then a valid request, all in one write. */
async function depth(ctx: Ctx, later: Promise<ProbeRecord>[]): Promise<void> {
  const sid = ctx.sessionId;
  const deepNote = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":${JSON.stringify(sid)},"update":{"sessionUpdate":"agent_message_chunk","content":${deepArray(1_000_000)}}}}\n`;
  const deepReq = ctx.wire.expect('deep');
  const deepReqLine = `{"jsonrpc":"2.0","id":${JSON.stringify(deepReq.id)},"method":"fs/read_text_file","params":{"sessionId":${JSON.stringify(sid)},"path":${JSON.stringify(ctx.params.readable)},"x":${deepArray(5000)}}}\n`;
  const next = ctx.wire.requestLine('fs/read_text_file', { sessionId: sid, path: ctx.params.readable }, 'after-deep');
  const t0 = Date.now();
  await ctx.wire.write(deepNote + deepReqLine + next.line);
  const [r1, r2] = await Promise.all([within(deepReq.reply, PROMPT_MS), within(next.reply, PROMPT_MS)]);
  const answer = (r: typeof r1): string =>
    r
      ? r.error
        ? `error ${r.error.code} ${r.error.message.slice(0, 200)}`
        : `result ${JSON.stringify(r.result).slice(0, 200)}`
      : `no answer within ${PROMPT_MS} ms`;
  ctx.results.add({ probe: 'depth.deep-request', cls: 'depth', sent: 'a request nested 5,000 deep', answer: answer(r1), ms: Date.now() - t0 });
  ctx.results.add({
    probe: 'depth.after-million',
    cls: 'depth',
    sent: 'a valid request in the same write after a line nested 1,000,000 deep',
    answer: answer(r2),
    ms: Date.now() - t0,
  });

  // Deep raw input: within the envelope's limit (previews must cope), and far beyond it.
  await ctx.wire.send(
    update(sid, { sessionUpdate: 'tool_call', toolCallId: 'deep-tool', title: 'deep raw input', kind: 'other', status: 'pending', rawInput: deepObject(120) }),
  );
  await ctx.wire.write(
    `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":${JSON.stringify(sid)},"update":{"sessionUpdate":"tool_call","toolCallId":"deeper-tool","title":"t","rawInput":${deepArray(100_000)}}}}\n`,
  );
  ctx.results.add({ probe: 'depth.raw-input', cls: 'depth', sent: 'tool calls with rawInput 120 and 100,000 deep', answer: 'sent', ms: 0 });
  const perm = permission(ctx, {
    probe: 'depth.permission-raw-input',
    cls: 'depth',
    what: 'a permission request whose rawInput is 120 deep',
    toolCall: { rawInput: deepObject(120) },
  });
  later.push(perm.done);
  await ctx.wire.write(perm.line);
}

/** Updates and a permission request for the other agent's session and for an invented one. */
function crossSessions(ctx: Ctx): void {
  const other = ctx.params.otherAgentSession;
  if (!other) return;
  void ctx.wire.send(messageChunk(ctx, other, 'injected', 'INJECTED-BY-OTHER-AGENT'));
  void ctx.wire.send(update(other, { sessionUpdate: 'plan', entries: [{ content: 'INJECTED-PLAN', priority: 'high', status: 'pending' }] }));
  ctx.results.add({
    probe: 'sessions.cross-agent-updates',
    cls: 'sessions',
    sent: "a message and a plan for the other agent's session",
    answer: 'sent',
    ms: 0,
  });
  // Recorded when (if ever) answered: a request for a session this agent does not own.
  const perm = permission(ctx, {
    probe: 'sessions.cross-agent-permission',
    cls: 'sessions',
    what: "a permission request in the other agent's session",
    command: 'npm test',
    sessionId: other,
  });
  void perm.done.then(() => ctx.results.flush());
  void ctx.wire.write(perm.line);
}
