import assert from 'node:assert/strict';
import { parseMarkdownOutline, taskProgress, type MdNode } from '../../../src/state/markdownOutline';
import { checklistLine, fenced, planToMarkdown } from '../../../src/state/planExport';

function shape(nodes: MdNode[]): unknown[] {
  return nodes.map((n) =>
    n.kind === 'heading'
      ? { h: n.level, text: n.text, children: shape(n.children) }
      : { task: n.text, checked: n.checked, ...(n.children.length ? { children: shape(n.children) } : {}) },
  );
}

describe('markdown plans', () => {
  it('parses headings and checkbox items into a nested outline', () => {
    const md = [
      '# Plan',
      'Some prose.',
      '- [x] Top task',
      '## Build',
      '- [ ] Compile',
      '  - [x] sub one',
      '  - [ ] sub two',
      '* [X] Link',
      '- plain item (not a task)',
      '1. [ ] Numbered',
      '## Test ##',
      '```md',
      '- [ ] inside a fence',
      '# not a heading',
      '```',
      '+ [ ] after fence',
    ].join('\n');
    const o = parseMarkdownOutline(md);
    assert.deepEqual(shape(o.roots), [
      {
        h: 1,
        text: 'Plan',
        children: [
          { task: 'Top task', checked: true },
          {
            h: 2,
            text: 'Build',
            children: [
              {
                task: 'Compile',
                checked: false,
                children: [
                  { task: 'sub one', checked: true },
                  { task: 'sub two', checked: false },
                ],
              },
              { task: 'Link', checked: true },
              { task: 'Numbered', checked: false },
            ],
          },
          { h: 2, text: 'Test', children: [{ task: 'after fence', checked: false }] },
        ],
      },
    ]);
    assert.equal(o.tasks, 7);
    assert.equal(o.checked, 3);
    assert.deepEqual(
      o.flat.map((n) => n.index),
      o.flat.map((_, i) => i),
    );
    assert.deepEqual(taskProgress(o.roots[0]!), { done: 3, total: 7 });
  });

  it('handles tasks before any heading, CRLF and empty task text', () => {
    const o = parseMarkdownOutline('- [ ] first\r\n- [x]\r\n#\r\n');
    assert.deepEqual(shape(o.roots), [
      { task: 'first', checked: false },
      { task: '', checked: true },
      { h: 1, text: '', children: [] },
    ]);
  });

  it('renders an items plan as a checklist with a header line', () => {
    const md = planToMarkdown({
      planId: 'plan-1',
      version: 3,
      plan: {
        type: 'items',
        planId: 'plan-1',
        entries: [
          { content: 'Scaffold', priority: 'high', status: 'completed' },
          { content: 'Wire\nflags', priority: 'high', status: 'in_progress' },
          { content: 'Old idea', priority: 'low', status: 'cancelled' },
          { content: 'Schema', priority: 'low', status: '_blocked' },
          { content: 'Docs', priority: 'low', status: 'pending' },
        ],
      },
    });
    assert.equal(
      md,
      [
        '## plan-1 · v3 — 1/5 done, 1 blocked, 1 cancelled',
        '',
        '- [x] Scaffold',
        '- [ ] Wire flags _(in progress)_',
        '- [x] ~~Old idea~~',
        '- [ ] Schema _(blocked)_',
        '- [ ] Docs',
        '',
      ].join('\n'),
    );
  });

  it('renders markdown verbatim, files by URI and unknown types as fenced JSON', () => {
    assert.equal(planToMarkdown({ planId: 'm', plan: { type: 'markdown', planId: 'm', content: '- [ ] a' } }), '## m · v1 — 0/1 done, 0 blocked\n\n- [ ] a\n');
    assert.match(
      planToMarkdown({ planId: 'f', plan: { type: 'file', planId: 'f', uri: 'file:///p.md' }, file: { text: '# Hi' } }),
      /File: <file:\/\/\/p\.md>\n\n# Hi\n$/,
    );
    const u = planToMarkdown({ planId: 'u', plan: { type: 'unknown', planId: 'u', rawType: '_x', raw: { type: '_x', planId: 'u', note: '```' } } });
    assert.match(u, /^## u · v1 — _x plan\n\n````json\n/);
    assert.match(u, /\n````\n$/);
  });

  it('writes checklist lines and fences', () => {
    assert.equal(checklistLine('  ', 'pending'), '- [ ] (empty)');
    assert.equal(fenced('', 'x'), '```\nx\n```\n');
  });
});
