import assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { allowOption, createRule, optionPresentation, ruleCandidates, ruleMatches, viewForLabel } from '../../../src/consent/permissionRules';
import { quoteWords, shellWords } from '../../../src/consent/shellWords';
import { READ_ONLY_COMMANDS } from '../../../src/consent/readOnlyCommands';
import type { PermissionOption, PermissionRequest } from '../../../src/protocol/domain';

const cmd = (command: string, cwd = '/w'): PermissionRequest => ({ sessionId: 's', title: 'Run', subject: { type: 'command', command, cwd }, options: [] });

/** Words from an alphabet full of shell-special characters, and from the programs that matter. */
const wordArb = fc.oneof(
  fc.constantFrom(
    'git',
    'log',
    'status',
    'diff',
    'show',
    'branch',
    'npm',
    'test',
    'rm',
    '-rf',
    '~',
    '--output=x',
    '-c',
    '--oneline',
    '-n',
    '5',
    '--',
    '/etc/passwd',
    '..',
    'HEAD~1',
    'env',
    'bash',
    '-lc',
    'X=1',
    '',
  ),
  fc.string({ unit: fc.constantFrom('a', 'b', '-', '=', '/', '.', ' ', "'", '"', '\\', '$', '*', ';', '|', '&', '>', '~', '#', '(', ')'), maxLength: 8 }),
);
const gitArg = fc.constantFrom(
  '--oneline',
  '-n',
  '5',
  '--stat',
  '--output=x',
  '--out=x',
  '-c',
  '--ext-diff',
  '--no-index',
  '/etc/passwd',
  '../x',
  'src',
  'HEAD~1',
  '--',
  '-5',
  '-n5',
  '--format=%H',
  '-p',
  '-D',
  'new',
  '--exec=x',
  '-O/x',
  '--color=always',
  '-o',
  '--textconv',
  'a/../../b',
);
/** Read-only git lines, so that wider candidates are exercised too. */
const gitArb = fc
  .tuple(fc.constantFrom('status', 'diff', 'log', 'show', 'branch', 'push', 'commit'), fc.array(gitArg, { maxLength: 5 }))
  .map(([sub, args]) => ['git', sub, ...args]);
const wordsArb = fc.oneof(fc.array(wordArb, { minLength: 1, maxLength: 7 }), gitArb);
/** A different word list: one word changed, added or removed. */
const extraArb = fc.oneof(wordArb, gitArg);
const mutate = (w: string[], pos: number, extra: string, op: number): string[] => {
  const i = pos % (w.length + 1);
  if (op === 0) return [...w.slice(0, i), extra, ...w.slice(i)];
  if (op === 1 && w.length > 1) return w.filter((_, j) => j !== i % w.length);
  return w.map((x, j) => (j === i % w.length ? extra : x));
};
const same = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** Programs that run another program, a script or a package: never a wider rule. */
const WRAPPERS = [
  'env',
  'nice',
  'nohup',
  'time',
  'timeout',
  'xargs',
  'exec',
  'command',
  'builtin',
  'eval',
  'source',
  '.',
  'stdbuf',
  'ionice',
  'taskset',
  'chrt',
  'flock',
  'watch',
  'strace',
  'ltrace',
  'script',
  'unbuffer',
  'setsid',
  'systemd-run',
  'busybox',
  'sh',
  'bash',
  'zsh',
  'fish',
  'dash',
  'ksh',
  'mksh',
  'ash',
  'csh',
  'tcsh',
  'pwsh',
  'cmd',
  'python',
  'python3',
  'node',
  'perl',
  'ruby',
  'php',
  'deno',
  'bun',
  'lua',
  'awk',
  'npx',
  'pnpx',
  'bunx',
  'uvx',
  'pipx',
  'find',
  'make',
  'npm',
  'pnpm',
  'yarn',
  'sudo',
  'doas',
  'su',
];

describe('consent properties (fast-check)', () => {
  it('no wrapper, shell, interpreter or package runner is a program of the read-only table', () => {
    for (const w of WRAPPERS) assert.ok(!Object.hasOwn(READ_ONLY_COMMANDS, w), w);
    assert.deepEqual(Object.keys(READ_ONLY_COMMANDS), ['git']);
  });

  it('quoteWords is read back unchanged by shellWords', () => {
    fc.assert(
      fc.property(wordsArb, (w) => {
        const r = shellWords(quoteWords(w));
        assert.ok(r.ok, quoteWords(w));
        assert.deepEqual(r.words, w);
      }),
      { numRuns: 500 },
    );
  });

  it('a rule from R matches R itself, and never a request whose words or folder differ — unless the wider form was chosen and the difference is an allowed read-only option or relative argument', () => {
    fc.assert(
      fc.property(wordsArb, fc.nat(), extraArb, fc.nat(2), fc.boolean(), (w, pos, extra, op, otherCwd) => {
        const line = quoteWords(w);
        const cands = ruleCandidates(cmd(line));
        const other = mutate(w, pos, extra, op);
        const cwd = otherCwd ? '/elsewhere' : '/w';
        for (const c of cands) {
          const r = createRule('a', c, 0);
          assert.equal(ruleMatches(r, 'a', cmd(line)), true, `${c.breadth} rule from ${line} must cover ${line}`);
          const matches = ruleMatches(r, 'a', cmd(quoteWords(other), cwd));
          if (c.breadth === 'narrow') assert.equal(matches, same(w, other) && !otherCwd, `${line} → ${quoteWords(other)}`);
          else if (matches) {
            assert.equal(otherCwd, false);
            assert.ok(r.type === 'commandReadOnly' && other[0] === r.program && other[1] === r.subcommand);
            const args = other.slice(2);
            const dashes = args.indexOf('--');
            // Before `--` these are options; after it git reads every word as a path.
            for (const x of dashes < 0 ? args : args.slice(0, dashes))
              assert.ok(!/^(--output|--ext-diff|--textconv|--no-index|--exec|--out|-c$|-O|-o$|-D$)/.test(x), x);
            for (const x of args) {
              assert.ok(!x.startsWith('/') && !x.split('/').includes('..') && !x.startsWith('~'), x);
            }
          }
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('wrapper, shell, interpreter, assignment and compound lines never get a wider candidate', () => {
    const lead = fc.oneof(fc.constantFrom(...WRAPPERS), fc.constantFrom('X=1', 'A_B=', 'sudo', 'doas', '/usr/bin/env'));
    fc.assert(
      fc.property(lead, wordsArb, fc.constantFrom('', ';', '&&', '|', '>', '$(', '`'), (first, rest, op) => {
        const line = `${quoteWords([first, ...rest])}${op ? ` ${op} x` : ''}`;
        const cands = ruleCandidates(cmd(line));
        assert.ok(
          cands.every((c) => c.breadth === 'narrow'),
          line,
        );
        if (op) assert.deepEqual(cands, [], line);
      }),
      { numRuns: 1000 },
    );
  });

  it('labels are unique and map back to their option; contradicting options never create rules nor are auto-picked', () => {
    const optArb = fc.record({
      optionId: fc.constantFrom('a', 'b', 'c', 'd'),
      name: fc.oneof(fc.constantFrom('OK', 'Reject', 'Always allow', 'Allow once', '', 'OK" (#2)', 'OK ⚠', 'No'), fc.string({ maxLength: 6 })),
      kind: fc.constantFrom('allow_once', 'allow_always', 'reject_once', 'reject_always', 'allow_x', ''),
    });
    fc.assert(
      fc.property(fc.array(optArb, { maxLength: 8 }), (options: PermissionOption[]) => {
        const views = optionPresentation(options);
        assert.equal(new Set(views.map((v) => v.label)).size, views.length, views.map((v) => v.label).join(' | '));
        for (const v of views) {
          assert.equal(viewForLabel(views, v.label), v);
          assert.ok(
            v.label.startsWith(
              v.kind === 'unknown'
                ? 'Unknown kind'
                : ['Allow once', 'Always allow', 'Reject once', 'Always reject'][
                    ['allow_once', 'allow_always', 'reject_once', 'reject_always'].indexOf(v.kind)
                  ]!,
            ),
          );
          if (v.contradicts || v.ambiguousId || v.kind !== 'allow_always') assert.equal(v.mayCreateRule, false);
        }
        const picked = allowOption(options);
        if (picked) {
          const v = views[options.indexOf(picked)]!;
          assert.ok(v.mayAutoPick && !v.contradicts && v.grants === 'allow');
        }
      }),
      { numRuns: 1000 },
    );
  });
});
