// Markdown for agent text (untrusted). Isomorphic: the webview bundles it, unit tests run it in
// Node. Raw HTML is escaped (`html: false`); links are kept only for http(s) and file URLs (any
// other link, `javascript:` and `command:` included, stays plain text); images become links, as
// the webview loads nothing remote.
import MarkdownIt from 'markdown-it';

type Markdown = InstanceType<typeof MarkdownIt>;

const ALLOWED_LINK = /^(https?:\/\/|file:\/\/)/i;

export function isAllowedLink(url: string): boolean {
  return ALLOWED_LINK.test(url.trim());
}

export function createMarkdown(): Markdown {
  const md = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: false });
  md.validateLink = (url: string): boolean => isAllowedLink(url);
  md.linkify.set({ fuzzyLink: false, fuzzyEmail: false });

  md.renderer.rules.image = (tokens, idx, options, env, self) => {
    const t = tokens[idx];
    const src = String(t.attrGet('src') ?? '');
    const alt = self.renderInlineAsText(t.children ?? [], options, env) || src;
    return `<a href="${md.utils.escapeHtml(src)}" class="md-image" title="${md.utils.escapeHtml(src)}">${md.utils.escapeHtml(`[image: ${alt}]`)}</a>`;
  };
  const linkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    const href = String(tokens[idx].attrGet('href') ?? '');
    tokens[idx].attrSet('title', href);
    return linkOpen(tokens, idx, options, env, self);
  };
  return md;
}

let shared: Markdown | undefined;

/** Renders untrusted Markdown to HTML that is safe to assign to `innerHTML`. */
export function renderMarkdown(src: string): string {
  shared ??= createMarkdown();
  return shared.render(src);
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Where a streamed Markdown text can be cut so that the part before renders the same on its own
 * and never changes again: the start of the last line that follows a blank line, begins at
 * column 0 and is outside a fenced code block. 0 when there is none.
 */
export function streamingSplit(text: string): number {
  let fence: string | null = null;
  let prevBlank = false;
  let best = 0;
  let pos = 0;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    if (nl < 0) break;
    const line = text.slice(pos, nl);
    const blank = line.trim() === '';
    if (!fence && prevBlank && !blank && !/^\s/.test(line)) best = pos;
    const m = FENCE.exec(line);
    if (fence) {
      if (m && m[1][0] === fence[0] && m[1].length >= fence.length && line.slice(m[0].length).trim() === '') fence = null;
      prevBlank = false;
    } else if (m) {
      fence = m[1];
      prevBlank = false;
    } else prevBlank = blank;
    pos = nl + 1;
  }
  return best;
}
