import { strict as assert } from 'node:assert';
import { Transcript } from '../../../src/state/transcript';
import { buildPromptBlocks } from '../../../src/ui/conversation/promptBlocks';
import { conversationHtml } from '../../../src/ui/conversation/html';
import { rankPaths } from '../../../src/ui/conversation/rank';
import { parseFromWebview } from '../../../src/ui/conversation/validate';
import { blockView, itemView, truncationText, usageText } from '../../../src/ui/conversation/viewModel';
import { DeltaTracker } from '../../../src/ui/conversation/deltas';
import { german } from '../l10n/german';
import { ev, S } from './builders';

describe('view model', () => {
  it('renders a v1 diff compactly with counts', () => {
    const t = new Transcript();
    t.apply(
      ev.tool('e', {
        title: 'Edit',
        kind: 'edit',
        content: [{ type: 'diff', changes: [{ operation: 'modify', path: '/w/a.ts' }], texts: [{ path: '/w/a.ts', oldText: 'x\ny\n', newText: 'x\nY\n' }] }],
      }),
    );
    const v = itemView(t.session(S)!.item('t:e')!, 0);
    assert.ok(v.kind === 'tool_call');
    const d = v.content[0];
    assert.ok(d.type === 'diff');
    assert.deepEqual(d.files, [{ path: '/w/a.ts', oldPath: null, operation: 'modify', added: 1, removed: 1 }]);
    assert.deepEqual(d.preview, [' x', '-y', '+Y']);
  });

  it('renders a v2 diff from its git patch', () => {
    const t = new Transcript();
    t.apply(
      ev.tool('e', {
        content: [
          {
            type: 'diff',
            changes: [{ operation: 'modify', path: '/w/src/b.ts' }],
            patch: { format: 'git_patch', text: '--- a/src/b.ts\n+++ b/src/b.ts\n@@ -1 +1 @@\n-old\n+new\n' },
          },
        ],
      }),
    );
    const v = itemView(t.session(S)!.item('t:e')!, 0);
    assert.ok(v.kind === 'tool_call' && v.content[0].type === 'diff');
    assert.equal(v.content[0].files[0].added, 1);
    assert.deepEqual(v.content[0].preview, ['@@ -1,1 +1,1', '-old', '+new']);
  });

  it('only lets safe raster images through as data URLs', () => {
    assert.ok(blockView({ type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' }).type === 'image');
    const svg = blockView({ type: 'image', mimeType: 'image/svg+xml', data: 'PHN2Zz4=' });
    assert.ok(svg.type === 'image' && svg.src === null);
    const bad = blockView({ type: 'image', mimeType: 'image/png', data: '"><script>' });
    assert.ok(bad.type === 'image' && bad.src === null);
  });

  it("words truncation notes, token usage, audio and terminal exits in the pump's L10n (English by default)", () => {
    const cut = { limit: 1024 * 1024, droppedChars: 3, droppedBlocks: 1, droppedFields: ['rawOutput'] };
    assert.equal(
      truncationText(cut, 'tool call'),
      'Not all of this tool call was kept: it passed the limit of 1 MiB per tool call (3 characters and 1 block were dropped; its output was too large to keep).',
    );
    assert.equal(
      truncationText(cut, 'tool call', german),
      'Dieser Tool-Aufruf wurde nicht vollständig behalten: Er hat die Grenze von 1 MiB pro Tool-Aufruf überschritten (3 Zeichen und 1 Block wurden verworfen; Ausgabe war zu groß zum Behalten).',
    );
    assert.equal(
      truncationText({ limit: 500, droppedChars: 1, droppedBlocks: 0, droppedFields: [] }, 'message', german).includes('500 Zeichen pro Nachricht'),
      true,
    );
    assert.equal(usageText({ inputTokens: 10, outputTokens: 2, totalTokens: 12 }), '10 in, 2 out, 12 total tokens');
    assert.equal(usageText({ inputTokens: 10, outputTokens: 2, totalTokens: 12 }, german), 'Token: 10 Eingabe, 2 Ausgabe, 12 gesamt');

    const t = new Transcript();
    t.apply(ev.termUpdate('term', { command: 'make', exitStatus: { signal: 'SIGTERM' } }));
    t.apply(
      ev.tool('c', {
        title: 'make',
        content: [
          { type: 'terminal', terminalId: 'term' },
          { type: 'content', content: { type: 'audio', mimeType: 'audio/wav', data: 'AAAA' } },
        ],
      }),
    );
    const tracker = new DeltaTracker(t.session(S)!, undefined, german);
    const page = tracker.snapshot(10);
    assert.equal(page.terminals[0]!.exit, 'durch SIGTERM beendet');
    const tool = page.items[0]!;
    assert.ok(tool.kind === 'tool_call' && tool.content[1]!.type === 'block');
    assert.deepEqual(tool.content[1].block, { type: 'other', label: 'Audio (audio/wav)', json: '4 Base64-Zeichen' });
    t.apply(ev.termUpdate('term', { exitStatus: { exitCode: 2 } }));
    assert.match(JSON.stringify(tracker.terminalOps('term')), /Exit-Code 2/);
    t.apply(ev.tool('big', { title: 'read', rawInput: Array.from({ length: 1_000 }, (_, i) => ({ i })) }));
    const big = tracker.itemOps('t:big')[0]!;
    assert.ok(big.op === 'upsert' && big.item.kind === 'tool_call' && big.item.rawInput?.endsWith('… (Rest nicht angezeigt)'), JSON.stringify(big).slice(-200));
  });
});

describe('webview messages', () => {
  it('accepts well-formed messages and rejects others', () => {
    assert.deepEqual(parseFromWebview({ type: 'permission', sessionId: 's', requestId: 'r', optionId: 'o', option: 2 }), {
      type: 'permission',
      sessionId: 's',
      requestId: 'r',
      optionId: 'o',
      option: 2,
    });
    assert.equal(parseFromWebview({ type: 'permission', sessionId: 's', requestId: 'r', optionId: 'o' }), undefined, 'the option position is required');
    assert.equal(parseFromWebview({ type: 'permission', sessionId: 's', requestId: 'r' }), undefined);
    assert.equal(parseFromWebview({ type: 'runCommand', command: 'x' }), undefined);
    assert.equal(parseFromWebview('ready'), undefined);
    assert.equal(parseFromWebview({ type: 'setConfig', sessionId: 's', configId: 'c', value: { evil: true } }), undefined);
  });

  it('the page has a strict CSP with a nonce and no inline script', () => {
    const html = conversationHtml({ cspSource: 'vscode-resource:', script: 'x.js', style: 'x.css' }, 'NONCE');
    assert.match(html, /default-src 'none'; script-src 'nonce-NONCE'; style-src vscode-resource:; img-src vscode-resource: data:/);
    assert.match(html, /<script nonce="NONCE" src="x.js"><\/script>/);
    assert.equal((html.match(/<script/g) ?? []).length, 1);
  });
});

describe('prompt blocks and mentions', () => {
  const files: Record<string, string> = { 'file:///w/a.ts': 'const a = 1;\n' };
  const read = async (uri: string) => files[uri];

  it('embeds files when the agent accepts embedded context', async () => {
    const blocks = await buildPromptBlocks('look at @a.ts', [{ uri: 'file:///w/a.ts', name: 'a.ts' }], { embeddedContext: true }, read);
    assert.deepEqual(blocks, [
      { type: 'text', text: 'look at @a.ts' },
      { type: 'resource', resource: { uri: 'file:///w/a.ts', text: 'const a = 1;\n' } },
    ]);
  });

  it('links files otherwise (or when they cannot be read)', async () => {
    const blocks = await buildPromptBlocks(
      'x',
      [
        { uri: 'file:///w/a.ts', name: 'src/a.ts' },
        { uri: 'file:///w/bin', name: 'bin' },
      ],
      { embeddedContext: false },
      read,
    );
    assert.deepEqual(blocks.slice(1), [
      { type: 'resource_link', uri: 'file:///w/a.ts', name: 'a.ts' },
      { type: 'resource_link', uri: 'file:///w/bin', name: 'bin' },
    ]);
    const b2 = await buildPromptBlocks('x', [{ uri: 'file:///w/bin', name: 'bin' }], { embeddedContext: true }, read);
    assert.equal(b2[1].type, 'resource_link');
  });

  it('sends no empty text block: a prompt of attachments alone is its attachments', async () => {
    const blocks = await buildPromptBlocks('  ', [{ uri: 'file:///w/a.ts', name: 'a.ts' }], { embeddedContext: false }, read);
    assert.deepEqual(blocks, [{ type: 'resource_link', uri: 'file:///w/a.ts', name: 'a.ts' }]);
    assert.deepEqual(await buildPromptBlocks('', [], { embeddedContext: false }, read), []);
  });

  it('ranks file-name prefixes first', () => {
    assert.deepEqual(rankPaths(['src/other/conv.ts', 'docs/x.md', 'src/conversation.ts', 'conv/a.ts'], 'conv'), [
      'src/other/conv.ts',
      'src/conversation.ts',
      'conv/a.ts',
    ]);
  });
});
