// Client terminals with real child processes (`node -e`, and the shell for shell strings): nothing
// runs without approval; cwd inside the session's folders; dangerous variables refused; ids scoped
// to (connection, agent, session); caps on count and output.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RpcError } from '../../../src/protocol/transport/errors';
import { TerminalService, type TerminalApprovalRequest, type TerminalOutputEvent } from '../../../src/agents/terminalService';

const node = process.execPath;
const posix = process.platform !== 'win32';

describe('client terminals (TerminalService)', () => {
  let tmp: string;
  let ws: string;
  let asked: TerminalApprovalRequest[];
  let answer: (req: TerminalApprovalRequest) => Promise<boolean>;
  let events: TerminalOutputEvent[];
  let svc: TerminalService;

  const make = (limits?: ConstructorParameters<typeof TerminalService>[0]['limits']): TerminalService =>
    new TerminalService({
      onOutput: (e) => events.push(e),
      roots: (_agentId, sessionId) => (sessionId === 'gone' ? [] : [ws]),
      approve: (req) => {
        asked.push(req);
        return answer(req);
      },
      ...(limits ? { limits } : {}),
    });

  beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-term-')));
    ws = path.join(tmp, 'ws');
    fs.mkdirSync(path.join(ws, 'sub'), { recursive: true });
    asked = [];
    events = [];
    answer = () => Promise.resolve(true);
    svc = make();
  });
  afterEach(() => {
    svc.dispose();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const refused = async (p: Promise<unknown>, re: RegExp): Promise<void> => {
    await assert.rejects(p, (e: unknown) => e instanceof RpcError && re.test(e.message));
  };

  it('runs an approved command in the session folder and reports output and exit', async () => {
    const t = svc.forConnection('agent:A');
    const marker = path.join(ws, 'ran');
    const { terminalId } = await t.create({
      sessionId: 's1',
      command: node,
      args: ['-e', `require('fs').writeFileSync('ran', process.cwd()); console.log('héllo'); process.exit(3)`],
      env: [{ name: 'CI', value: '1' }],
    });
    assert.match(terminalId, /^term_[0-9a-f-]{36}$/);
    assert.deepEqual(await t.waitForExit({ sessionId: 's1', terminalId }), { exitCode: 3, signal: null });
    assert.equal(fs.readFileSync(marker, 'utf8'), ws);
    const out = await t.output({ sessionId: 's1', terminalId });
    assert.deepEqual(out, { output: 'héllo\n', truncated: false, exitStatus: { exitCode: 3, signal: null } });
    assert.deepEqual(asked, [{ agentId: 'agent:A', sessionId: 's1', command: node, args: asked[0]!.args, cwd: ws, env: { CI: '1' } }]);
    // The transcript got the output as deltas and the exit once, at the end.
    assert.equal(events.map((e) => e.text).join(''), 'héllo\n');
    assert.deepEqual(
      events.filter((e) => e.exit).map((e) => e.exit),
      [{ exitCode: 3, signal: null }],
    );
    assert.ok(events.at(-1)!.exit);
  });

  it('runs nothing when the user does not allow it (no, or the question failing), with a sentence for the agent', async () => {
    const t = svc.forConnection('agent:A');
    const marker = path.join(ws, 'should-not-exist');
    const args = ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`];
    answer = () => Promise.resolve(false);
    await refused(t.create({ sessionId: 's1', command: node, args }), /The user did not allow running/);
    answer = () => Promise.reject(new Error('broker gone'));
    await refused(t.create({ sessionId: 's1', command: `touch ${marker}` }), /did not allow/);
    assert.equal(asked.length, 2);
    assert.equal(svc.size, 0);
    assert.equal(fs.existsSync(marker), false);
    assert.equal(events.length, 0);
  });

  it('refuses a cwd outside the session folders (before asking), and resolves links', async () => {
    const t = svc.forConnection('agent:A');
    await refused(t.create({ sessionId: 's1', command: 'true', cwd: '/' }), /outside the session's folders/);
    await refused(t.create({ sessionId: 's1', command: 'true', cwd: tmp }), /outside the session's folders/);
    await refused(t.create({ sessionId: 's1', command: 'true', cwd: `${ws}/..` }), /outside/);
    await refused(t.create({ sessionId: 'gone', command: 'true' }), /no folder/);
    if (posix) {
      fs.symlinkSync('/', path.join(ws, 'root-link'));
      await refused(t.create({ sessionId: 's1', command: 'true', cwd: path.join(ws, 'root-link') }), /outside/);
    }
    assert.equal(asked.length, 0);
    const { terminalId } = await t.create({ sessionId: 's1', command: node, args: ['-e', 'process.stdout.write(process.cwd())'], cwd: path.join(ws, 'sub') });
    await t.waitForExit({ sessionId: 's1', terminalId });
    assert.equal((await t.output({ sessionId: 's1', terminalId })).output, path.join(ws, 'sub'));
  });

  it('refuses the whole request for a dangerous variable, naming it, before asking', async () => {
    const t = svc.forConnection('agent:A');
    await refused(
      t.create({
        sessionId: 's1',
        command: 'true',
        env: [
          { name: 'CI', value: '1' },
          { name: 'LD_PRELOAD', value: '/tmp/evil.so' },
        ],
      }),
      /LD_PRELOAD/,
    );
    await refused(t.create({ sessionId: 's1', command: 'true', env: [{ name: 'NODE_OPTIONS', value: '--require /tmp/x.js' }] }), /NODE_OPTIONS/);
    assert.equal(asked.length, 0);
  });

  it('refuses malformed commands', async () => {
    const t = svc.forConnection('agent:A');
    await refused(t.create({ sessionId: 's1', command: '  ' }), /no command/);
    await refused(t.create({ sessionId: 's1', command: 'echo', args: ['a\0b'] }), /NUL/);
    await refused(t.create({ sessionId: 's1', command: 'x'.repeat(40_000) }), /characters long/);
    assert.equal(asked.length, 0);
  });

  it('scopes ids to connection, agent and session: others get "unknown terminal"', async () => {
    const a = svc.forConnection('agent:A');
    const { terminalId } = await a.create({ sessionId: 's1', command: node, args: ['-e', 'console.log("private")'] });
    await a.waitForExit({ sessionId: 's1', terminalId });
    const b = svc.forConnection('agent:B');
    const aAgain = svc.forConnection('agent:A'); // a new connection of the same agent (restart)
    for (const [who, sessionId] of [
      [a, 's2'],
      [b, 's1'],
      [aAgain, 's1'],
    ] as const) {
      await refused(who.output({ sessionId, terminalId }), /Unknown terminal/);
      await refused(who.waitForExit({ sessionId, terminalId }), /Unknown terminal/);
      await refused(who.kill({ sessionId, terminalId }), /Unknown terminal/);
      await who.release({ sessionId, terminalId }); // a no-op, not a release of A's terminal
    }
    assert.equal((await a.output({ sessionId: 's1', terminalId })).output, 'private\n');
    await refused(a.output({ sessionId: 's1', terminalId: 'term-1' }), /Unknown terminal/);
  });

  it('caps live terminals per session and per agent, counting those waiting for approval', async () => {
    svc.dispose();
    svc = make({ perSession: 2, perAgent: 3 });
    const t = svc.forConnection('agent:A');
    const long = { command: node, args: ['-e', 'setTimeout(() => {}, 60000)'] };
    let release: (ok: boolean) => void = () => undefined;
    let askedFirst: () => void = () => undefined;
    const firstAsked = new Promise<void>((r) => {
      askedFirst = r;
    });
    // The first question stays open until released; the others are answered at once.
    answer = () =>
      asked.length === 1
        ? new Promise<boolean>((r) => {
            release = r;
            askedFirst();
          })
        : Promise.resolve(true);
    const waiting = t.create({ sessionId: 's1', ...long });
    await firstAsked;
    const first = await t.create({ sessionId: 's1', ...long });
    assert.equal(svc.size, 1, 'one running, one waiting for the user');
    await refused(t.create({ sessionId: 's1', ...long }), /Too many terminals in this session \(2\)/);
    release(true);
    await waiting;
    await t.create({ sessionId: 's2', ...long });
    await refused(t.create({ sessionId: 's3', ...long }), /Too many terminals for this agent \(3/);
    // Another agent has its own budget; releasing frees a place.
    await svc.forConnection('agent:B').create({ sessionId: 's1', ...long });
    await t.release({ sessionId: 's1', terminalId: first.terminalId });
    await t.create({ sessionId: 's3', ...long });
    assert.equal(svc.size, 4);
  });

  it('runs nothing when the session is released while the user is asked', async () => {
    const t = svc.forConnection('agent:A');
    let release: (ok: boolean) => void = () => undefined;
    const question = new Promise<void>((onAsked) => {
      answer = () =>
        new Promise<boolean>((r) => {
          release = r;
          onAsked();
        });
    });
    const marker = path.join(ws, 'late');
    const pending = t.create({ sessionId: 's1', command: node, args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`] });
    await question;
    svc.releaseAll({ agentId: 'agent:A' });
    release(true);
    await refused(pending, /released while the user was asked/);
    assert.equal(svc.size, 0);
    assert.equal(fs.existsSync(marker), false);
  });

  it('honours outputByteLimit: keeps the end, at a character boundary, and says it was truncated', async () => {
    const t = svc.forConnection('agent:A');
    // 10 × "€" (30 bytes) then "end": the last 8 bytes start inside a "€".
    const { terminalId } = await t.create({ sessionId: 's1', command: node, args: ['-e', 'process.stdout.write("€".repeat(10) + "end")'], outputByteLimit: 8 });
    await t.waitForExit({ sessionId: 's1', terminalId });
    assert.deepEqual(await t.output({ sessionId: 's1', terminalId }), { output: '€end', truncated: true, exitStatus: { exitCode: 0, signal: null } });
    // The view still gets the whole (bounded) output.
    assert.equal(events.map((e) => e.text).join(''), `${'€'.repeat(10)}end`);
  });

  it('caps what is kept whatever the agent asks, and survives a flood of output', async () => {
    svc.dispose();
    svc = make({ maxOutputBytes: 64 * 1024 });
    const t = svc.forConnection('agent:A');
    const { terminalId } = await t.create({
      sessionId: 's1',
      command: node,
      args: ['-e', 'const b = Buffer.alloc(65536, 97); for (let i = 0; i < 160; i++) process.stdout.write(b); process.stdout.write("END")'],
      outputByteLimit: 1e12,
    });
    await t.waitForExit({ sessionId: 's1', terminalId });
    const out = await t.output({ sessionId: 's1', terminalId });
    assert.equal(out.truncated, true);
    assert.equal(Buffer.byteLength(out.output), 64 * 1024);
    assert.ok(out.output.endsWith('aEND'));
    assert.ok(
      events.every((e) => e.text.length <= 64 * 1024 + 65536),
      'deltas to the view are bounded too',
    );
  });

  (posix ? it : it.skip)('kill stops the process group; release forgets the terminal; shell strings run through the shell', async () => {
    const t = svc.forConnection('agent:A');
    const { terminalId } = await t.create({ sessionId: 's1', command: `${JSON.stringify(node)} -e "setTimeout(() => {}, 60000)" & wait` });
    await t.kill({ sessionId: 's1', terminalId });
    const exit = await t.waitForExit({ sessionId: 's1', terminalId });
    assert.equal(exit.signal, 'SIGTERM');
    await t.release({ sessionId: 's1', terminalId });
    await refused(t.output({ sessionId: 's1', terminalId }), /Unknown terminal/);
    const sh = await t.create({ sessionId: 's1', command: 'echo one && echo two' });
    await t.waitForExit({ sessionId: 's1', terminalId: sh.terminalId });
    assert.equal((await t.output({ sessionId: 's1', terminalId: sh.terminalId })).output, 'one\ntwo\n');
  });

  it('reports a command that cannot start as an exit, with the reason in the output', async () => {
    const t = svc.forConnection('agent:A');
    const { terminalId } = await t.create({ sessionId: 's1', command: path.join(ws, 'no-such-program'), args: ['x'] });
    const exit = await t.waitForExit({ sessionId: 's1', terminalId });
    assert.notEqual(exit.exitCode, 0);
    assert.match((await t.output({ sessionId: 's1', terminalId })).output, /ENOENT/);
  });
});
