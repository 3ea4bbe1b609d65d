// The webview's page: one nonce'd script, one stylesheet, a strict CSP. Pure (no `vscode`).

export interface PageUris {
  cspSource: string;
  script: string;
  style: string;
}

export function makeNonce(): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => chars[b % chars.length]).join('');
}

/** `s` as the value of an HTML attribute (or text between tags). */
export function attr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** `strings`: the page's words (webviewStrings.ts), given to it as data; English without. */
export function conversationHtml(u: PageUris, nonce = makeNonce(), strings?: unknown, lang = 'en'): string {
  const words = (strings as { strings?: { conversation?: unknown } } | undefined)?.strings?.conversation;
  const title = typeof words === 'string' ? words : 'Conversation';
  const csp = ["default-src 'none'", `script-src 'nonce-${nonce}'`, `style-src ${u.cspSource}`, `img-src ${u.cspSource} data:`].join('; ');
  return `<!DOCTYPE html>
<html lang="${attr(lang)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(u.style)}">
<title>${attr(title)}</title>
</head>
<body>
<main id="app"${strings === undefined ? '' : ` data-strings="${attr(JSON.stringify(strings))}"`}></main>
<script nonce="${nonce}" src="${attr(u.script)}"></script>
</body>
</html>`;
}
