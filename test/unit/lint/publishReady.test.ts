// The manifest fields the Marketplace and Open VSX show: a 128×128 PNG icon in the repository (and
// in the .vsix allow-list), a gallery banner, categories and keywords, LICENSE and CHANGELOG; the
// walkthrough's pages exist and ship; every keybinding names a contributed command and a first key
// of its own.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../../../..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<string, unknown> & {
  contributes: {
    commands: { command: string }[];
    keybindings: { command: string; key: string; mac?: string; when?: string }[];
    walkthroughs: { steps: { media: { markdown?: string }; completionEvents: string[] }[] }[];
  };
};
const vscodeignore = fs.readFileSync(path.join(root, '.vscodeignore'), 'utf8');
const nls = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;

describe('Publish-ready manifest', () => {
  it('the icon is a 128×128 PNG in the repository and the package', () => {
    assert.equal(pkg.icon, 'media/icon.png');
    const png = fs.readFileSync(path.join(root, 'media/icon.png'));
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128]);
    assert.match(vscodeignore, /^!media\/\*\.png$/m);
  });

  it('gallery banner, categories, keywords, license, changelog', () => {
    const banner = pkg.galleryBanner as { color: string; theme: string };
    assert.match(banner.color, /^#[0-9a-f]{6}$/i);
    assert.ok(['dark', 'light'].includes(banner.theme));
    assert.ok((pkg.categories as string[]).length >= 2 && (pkg.keywords as string[]).length <= 30, 'the Marketplace takes at most 30 keywords');
    assert.equal(pkg.license, 'MIT');
    assert.ok(fs.existsSync(path.join(root, 'LICENSE')) && fs.existsSync(path.join(root, 'CHANGELOG.md')));
  });

  it('the walkthrough pages exist and ship; each step completes on an event', () => {
    for (const step of pkg.contributes.walkthroughs[0]!.steps) {
      // The page is a package.nls %key% (a page per language): the English page must exist.
      const page = /^%(.+)%$/.exec(step.media.markdown ?? '')?.[1];
      const file = page ? nls[page] : step.media.markdown;
      assert.ok(file && fs.existsSync(path.join(root, file)), step.media.markdown);
      assert.ok(step.completionEvents.length > 0);
    }
    assert.match(vscodeignore, /^!media\/walkthrough\/\*\.md$/m);
  });

  it('every keybinding runs a contributed command, on a first key of its own', () => {
    const commands = new Set(pkg.contributes.commands.map((c) => c.command));
    for (const k of pkg.contributes.keybindings) {
      assert.ok(commands.has(k.command), k.command);
      assert.equal(k.key.split(' ')[0], "ctrl+'");
      assert.equal(k.mac?.split(' ')[0], "cmd+'");
    }
  });
});
