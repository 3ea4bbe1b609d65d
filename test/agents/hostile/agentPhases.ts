// Phases of the battery that need no client services (any protocol version; the test runs them on
// a v2 agent): consent, rules, huge and quadratic input, file plans, request ids, sessions.
import { pathToFileURL } from 'node:url';
import { describeReply } from './results';
import { within } from './wire';
import { messageChunk, permission, PROMPT_MS, sendMany, signal, update, type Ctx, type PermissionProbe } from './probes';

/** Requests the user answers (the test clicks), then a flood the user never answers. */
export async function consent(ctx: Ctx, flood = 200): Promise<void> {
  const probes: PermissionProbe[] = [
    {
      probe: 'consent.reject-named-allow-always',
      cls: 'consent',
      what: 'an allow_always option named "Reject"',
      command: 'npm test',
      options: [
        { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
        { optionId: 'reject-named-always', name: 'Reject', kind: 'allow_always' },
        { optionId: 'deny', name: 'Deny', kind: 'reject_once' },
      ],
    },
    {
      probe: 'consent.two-ok',
      cls: 'consent',
      what: 'two options both named "OK"',
      command: 'npm run build',
      options: [
        { optionId: 'ok-first', name: 'OK', kind: 'reject_once' },
        { optionId: 'ok-second', name: 'OK', kind: 'allow_once' },
      ],
    },
    {
      probe: 'consent.same-id',
      cls: 'consent',
      what: 'allow and reject sharing one optionId',
      command: 'npm run lint',
      options: [
        { optionId: 'same', name: 'Allow', kind: 'allow_once' },
        { optionId: 'same', name: 'Reject', kind: 'reject_once' },
      ],
    },
  ];
  for (let i = 0; i < flood; i++) probes.push({ probe: `consent.flood-${i}`, cls: 'consent', what: `flood request ${i}`, command: `echo flood-${i}` });
  const sent = probes.map((p) => permission(ctx, p));
  await ctx.wire.write(sent.map((s) => s.line).join(''));
  await signal(ctx, 'hostile: waiting (consent)');
  await Promise.all(sent.map((s) => s.done));
}

/** An "always allow" of one narrow command, then commands that rule must never cover. */
export async function rules(ctx: Ctx): Promise<void> {
  const ws = ctx.params.workspace;
  const narrow = permission(ctx, { probe: 'rules.narrow', cls: 'rules', what: 'a narrow command', command: 'rm -i tmp.txt' });
  await ctx.wire.write(narrow.line);
  await narrow.done;
  const wider: PermissionProbe[] = [
    { probe: 'rules.rm-rf-home', cls: 'rules', what: 'the same program, destructive', command: 'rm -rf ~' },
    { probe: 'rules.env-sh', cls: 'rules', what: 'env wrapping a shell', command: 'env X=1 sh -c "rm -i tmp.txt"' },
    { probe: 'rules.sudo', cls: 'rules', what: 'privilege', command: 'sudo rm -i tmp.txt' },
    { probe: 'rules.bash-lc', cls: 'rules', what: 'a login shell', command: 'bash -lc "rm -i tmp.txt"' },
    { probe: 'rules.git-log-output', cls: 'rules', what: 'git log writing a file', command: `git log --output=${ctx.params.canary}/git-log.txt` },
    { probe: 'rules.chain', cls: 'rules', what: 'the allowed command chained', command: 'rm -i tmp.txt; rm -rf ~' },
    { probe: 'rules.other-cwd', cls: 'rules', what: 'the allowed command in another folder', command: 'rm -i tmp.txt', cwd: '/' },
    { probe: 'rules.tool-call', cls: 'rules', what: 'an execute tool call', toolCall: { kind: 'execute', rawInput: { command: 'rm -rf ~' } } },
  ];
  const sent = wider.map((p) => permission(ctx, { ...p, cwd: p.cwd ?? ws }));
  await ctx.wire.write(sent.map((s) => s.line).join(''));
  await signal(ctx, 'hostile: waiting (rules)');
  await Promise.all(sent.map((s) => s.done));
}

const KB = 1024;
const MB = 1024 * KB;

/** Markdown built to trip backtracking parsers, huge messages and plans, many archives, odd files, bad ids. */
export async function huge(ctx: Ctx, o: { chunks?: number; planMb?: number; revisions?: number; archives?: number } = {}): Promise<void> {
  const sid = ctx.sessionId;
  const send = (u: Record<string, unknown>): Promise<void> => ctx.wire.send(update(sid, u));
  const plan = (planId: string, content: string): Promise<void> => send({ sessionUpdate: 'plan_update', plan: { type: 'markdown', planId, content } });
  const t0 = Date.now();
  const note = (probe: string, cls: 'huge' | 'quadratic' | 'file-plans', sent: string): void =>
    void ctx.results.add({ probe, cls, sent, answer: 'sent', ms: Date.now() - t0 });

  // Quadratic: one 200 KB line each of `[`, `*`, backticks, and a mix.
  for (const [name, unit] of [
    ['brackets', '['],
    ['stars', '*'],
    ['backticks', '`'],
    ['mixed', '[*`_]('],
  ] as const) {
    await plan(`md-${name}`, `# Plan\n- [ ] ${unit.repeat(Math.ceil((200 * KB) / unit.length))}\n`);
    note(`quadratic.md-${name}`, 'quadratic', `a markdown plan with one 200 KB line of ${unit}`);
  }
  // 300 × 1 MB chunks of one message.
  const chunks = o.chunks ?? 300;
  const chunk = '[*`x'.repeat(MB / 4);
  for (let i = 0; i < chunks; i++) await ctx.wire.send(messageChunk(ctx, sid, 'huge-message', chunk));
  note('huge.message-chunks', 'huge', `${chunks} × 1 MB chunks of one message`);
  // 10 MB markdown plans × many revisions.
  const planMb = o.planMb ?? 10;
  const revisions = o.revisions ?? 20;
  const body = '- [ ] a step with *emphasis* and `code` and [a link](x)\n'.repeat(Math.ceil((planMb * MB) / 56)).slice(0, planMb * MB);
  for (let r = 0; r < revisions; r++) await plan('huge-plan', `# Revision ${r}\n${body}`);
  note('huge.plan-revisions', 'huge', `${revisions} revisions of a ${planMb} MB markdown plan`);
  // 10,000 plans, each removed (archived) at once.
  const archives = o.archives ?? 10_000;
  await sendMany(
    ctx,
    archives,
    (i) =>
      ctx.wire.line(
        update(sid, {
          sessionUpdate: 'plan_update',
          plan: { type: 'items', planId: `arch-${i}`, entries: [{ content: `archived plan ${i} ${'x'.repeat(200)}`, priority: 'low', status: 'completed' }] },
        }),
      ) + ctx.wire.line(update(sid, { sessionUpdate: 'plan_removed', planId: `arch-${i}` })),
    500,
  );
  note('huge.archives', 'huge', `${archives} plans archived by plan_removed`);

  // File plans that must never be read: a device, a FIFO, the host's environment, a link to a device, outside the workspace.
  const p = ctx.params;
  const files: [string, string][] = [
    ['file-dev-zero', 'file:///dev/zero'],
    ['file-fifo', pathToFileURL(p.fifo).href],
    ['file-proc-environ', 'file:///proc/self/environ'],
    ['file-zero-link', pathToFileURL(p.zeroLink).href],
    ['file-outside', pathToFileURL(p.outsidePlan).href],
  ];
  for (const [planId, uri] of files) {
    await send({ sessionUpdate: 'plan_update', plan: { type: 'file', planId, uri } });
    note(`file-plans.${planId}`, 'file-plans', uri);
  }
  await ids(ctx);
}

/** Requests with a null id and an object id: the client must answer each (-32600, id null). */
async function ids(ctx: Ctx): Promise<void> {
  const params = { sessionId: ctx.sessionId, title: 'a request with an unusable id', options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }] };
  for (const [probe, id] of [
    ['ids.null', null],
    ['ids.object', { x: 1 }],
  ] as const) {
    const t0 = Date.now();
    const reply = ctx.wire.nextNullIdReply();
    await ctx.wire.send({ jsonrpc: '2.0', id, method: 'session/request_permission', params });
    const r = await within(reply, PROMPT_MS);
    ctx.results.add({
      probe,
      cls: 'ids',
      sent: `session/request_permission with id ${JSON.stringify(id)}`,
      answer: describeReply(r, PROMPT_MS),
      ms: Date.now() - t0,
    });
  }
}

/** Updates for sessions this agent never created (invented ids), and one permission request for one. */
export async function sessions(ctx: Ctx, invented: number): Promise<void> {
  const t0 = Date.now();
  await sendMany(ctx, invented, (i) => ctx.wire.line(messageChunk(ctx, `invented-${i}`, 'm', `INVENTED-SESSION ${i}`)), 2000);
  ctx.results.add({ probe: 'sessions.invented', cls: 'sessions', sent: `updates for ${invented} invented session ids`, answer: 'sent', ms: Date.now() - t0 });
  // Its answer may never come (nobody can answer for a session that does not exist): recorded when it does.
  const perm = permission(ctx, {
    probe: 'sessions.invented-permission',
    cls: 'sessions',
    what: 'a permission request for an invented session',
    command: 'npm test',
    sessionId: 'invented-permission',
  });
  void perm.done.then(() => ctx.results.flush());
  await ctx.wire.write(perm.line);
  await signal(ctx, 'hostile: waiting (sessions)');
}
