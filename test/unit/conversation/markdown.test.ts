import { strict as assert } from 'node:assert';
import { isAllowedLink, renderMarkdown, streamingSplit } from '../../../media/src/markdown';

describe('Markdown renderer safety', () => {
  it('escapes raw HTML', () => {
    const html = renderMarkdown('<script>alert(1)</script>\n\n<img src=x onerror=alert(1)> <b>bold</b>');
    assert.ok(!html.includes('<script'), html);
    assert.ok(!html.includes('<img'), html);
    assert.ok(!html.includes('<b>'), html);
    assert.ok(html.includes('&lt;script&gt;'), html);
  });

  it('renders http(s) and file links as links', () => {
    const html = renderMarkdown('[docs](https://example.com/a) [f](file:///w/a.ts) <http://x.org> and https://auto.link/p');
    assert.match(html, /<a href="https:\/\/example.com\/a"/);
    assert.match(html, /<a href="file:\/\/\/w\/a.ts"/);
    assert.match(html, /<a href="http:\/\/x.org"/);
    assert.match(html, /<a href="https:\/\/auto.link\/p"/);
  });

  for (const url of [
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    'command:workbench.action.terminal.new',
    'vbscript:x',
    'data:text/html;base64,PHNjcmlwdD4=',
    'vscode://ext/x',
    'relative/path.md',
    '#anchor',
  ]) {
    it(`does not render ${url} as a link`, () => {
      for (const src of [`[click](${url})`, `<${url}>`, `[r]: ${url}\n\n[click][r]`, `![img](${url})`]) {
        const html = renderMarkdown(src);
        assert.ok(!/<a\s/i.test(html) || !/href="(?!https?:|file:)/i.test(html), `${src} → ${html}`);
        assert.ok(!/href="\s*(javascript|command|vbscript|data|vscode):/i.test(html), `${src} → ${html}`);
      }
    });
  }

  it('renders images as links, never <img>', () => {
    const html = renderMarkdown('![logo](https://example.com/logo.png)');
    assert.ok(!html.includes('<img'), html);
    assert.match(html, /<a href="https:\/\/example.com\/logo.png" class="md-image"/);
  });

  it('escapes attribute-breaking characters in link targets', () => {
    const html = renderMarkdown('[x](https://e.com/"onmouseover="alert(1))');
    assert.ok(!/"\s*onmouseover=/i.test(html), html);
  });

  it('isAllowedLink accepts only http, https and file', () => {
    assert.equal(isAllowedLink('https://a'), true);
    assert.equal(isAllowedLink('file:///a'), true);
    assert.equal(isAllowedLink('ftp://a'), false);
    assert.equal(isAllowedLink('command:x'), false);
  });
});

describe('streamingSplit', () => {
  it('cuts before the last paragraph that follows a blank line', () => {
    const text = 'para one\n\npara two\n\npara three\nstill three';
    assert.equal(text.slice(streamingSplit(text)), 'para three\nstill three');
  });

  it('never cuts inside a fenced code block', () => {
    const text = 'intro\n\n```js\nconst a = 1;\n\nconst b = 2;\n';
    assert.equal(streamingSplit(text), 'intro\n\n'.length);
    const closed = `${text}\`\`\`\n\nafter\n`;
    assert.equal(closed.slice(streamingSplit(closed)), 'after\n');
  });

  it('does not cut before indented lines (list continuations, indented code)', () => {
    const text = '1. item\n\n    continued\n';
    assert.equal(streamingSplit(text), 0);
  });

  it('renders the same as a whole for paragraphs (split and join)', () => {
    const text = '# Title\n\nSome *text*.\n\n- a\n- b\n\nEnd **bold**\n';
    const cut = streamingSplit(text);
    assert.ok(cut > 0);
    assert.equal(renderMarkdown(text.slice(0, cut)) + renderMarkdown(text.slice(cut)), renderMarkdown(text));
  });
});
