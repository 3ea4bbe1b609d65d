// Renders the Marketplace icon, media/icon.png (128×128), from media/acp.svg with the headless
// Chromium the integration tests use (playwright-core): the activity bar glyph, white on a dark
// rounded square, so it reads on light and dark galleries alike. Run again after changing the
// SVG: `node scripts/render-icon.mjs` (CHROMIUM_PATH overrides /usr/bin/chromium).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const svg = readFileSync(path.join(root, 'media', 'acp.svg'), 'utf8').replace('<svg ', '<svg width="96" height="96" ').replace(/ width="24" height="24"/, '');
const html = `<!doctype html><html><body style="margin:0;background:transparent">
<div style="width:128px;height:128px;border-radius:24px;background:#1e3a5f;color:#ffffff;display:flex;align-items:center;justify-content:center">${svg}</div>
</body></html>`;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 }, deviceScaleFactor: 1 });
  await page.setContent(html);
  await page.screenshot({ path: path.join(root, 'media', 'icon.png'), omitBackground: true, clip: { x: 0, y: 0, width: 128, height: 128 } });
} finally {
  await browser.close();
}
console.log('media/icon.png written (128×128)');
