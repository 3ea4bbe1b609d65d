// The walkthrough's step pages are localized through package.nls: each step's `media.markdown` is a
// %key% whose value in every package.nls*.json names a page that exists, the German one its own.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';

function root(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.nls.json'))) return dir;
    if (path.dirname(dir) === dir) return process.cwd();
  }
}
const ROOT = root(__dirname);
const read = (f: string): Record<string, string> => JSON.parse(fs.readFileSync(path.join(ROOT, f), 'utf8')) as Record<string, string>;

describe('Walkthrough pages in every language', () => {
  const manifest = read('package.json') as unknown as { contributes: { walkthroughs: { steps: { media: { markdown?: string } }[] }[] } };
  const keys = manifest.contributes.walkthroughs.flatMap((w) => w.steps.map((s) => s.media.markdown ?? ''));

  it('names each step page by a %key%', () => {
    assert.ok(keys.length >= 4);
    for (const k of keys) assert.match(k, /^%walkthroughs\.[\w.]+\.media\.markdown%$/);
  });

  for (const file of fs.readdirSync(ROOT).filter((f) => /^package\.nls(\.[\w-]+)?\.json$/.test(f))) {
    it(`${file}: every step page exists, and a translation's pages are its own`, () => {
      const nls = read(file);
      const english = read('package.nls.json');
      for (const k of keys.map((x) => x.slice(1, -1))) {
        const page = nls[k];
        assert.ok(page, `${file} has ${k}`);
        assert.ok(fs.existsSync(path.join(ROOT, page)), `${page} exists`);
        if (file !== 'package.nls.json') assert.notStrictEqual(page, english[k], `${file} points ${k} at a page of its own`);
      }
    });
  }
});
