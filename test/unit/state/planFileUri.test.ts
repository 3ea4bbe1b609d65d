import assert from 'node:assert/strict';
import path from 'node:path';
import { checkPlanFileUri, decidePlanFile } from '../../../src/state/planFileUri';

describe('plan file URIs', () => {
  it('accepts absolute file: URIs', () => {
    assert.deepEqual(checkPlanFileUri('file:///tmp/plan.md'), { ok: true, uri: 'file:///tmp/plan.md' });
    assert.equal(checkPlanFileUri('file://localhost/tmp/plan.md').ok, true);
    assert.equal(checkPlanFileUri('file:///C:/work/plan.md').ok, true);
    assert.equal(checkPlanFileUri('FILE:///tmp/My%20Plan.md').ok, true);
  });

  it('refuses other schemes, relative paths, remote hosts and garbage, saying why', () => {
    const reason = (u: string) => {
      const r = checkPlanFileUri(u);
      return r.ok ? 'ok' : r.reason;
    };
    assert.equal(reason('https://example.com/plan.md'), 'only file: URIs are opened, not https:');
    assert.equal(reason('vscode://settings'), 'only file: URIs are opened, not vscode:');
    assert.equal(reason('file:plan.md'), 'not an absolute file URI');
    assert.equal(reason('file://plan.md'), 'not an absolute file URI');
    assert.equal(reason('plan.md'), 'not an absolute URI');
    assert.equal(reason('/tmp/plan.md'), 'not an absolute URI');
    assert.equal(reason('file://server/share/plan.md'), 'file URIs on another host (server) are not opened');
    assert.equal(reason('file:///tmp/%E0%A4%A.md'), 'not a valid URI');
  });
});

describe('file plans: which paths are read', () => {
  const ws = '/work/ws';
  const decide = (uri: string, roots: readonly string[] | 'anywhere' = [ws]) => decidePlanFile(uri, roots);

  it('reads files inside a workspace folder', () => {
    assert.deepEqual(decide('file:///work/ws/plan.md'), { ok: true, path: '/work/ws/plan.md' });
    assert.deepEqual(decide('file:///work/ws/docs/My%20Plan.md'), { ok: true, path: '/work/ws/docs/My Plan.md' });
    assert.deepEqual(decide('file:///work/ws/a/../b.md'), { ok: true, path: '/work/ws/b.md' });
  });

  it('does not read files outside, however the path gets there, but offers to open them', () => {
    for (const uri of [
      'file:///work/ws/../secret.md',
      'file:///work/ws/%2e%2e/secret.md',
      'file:///work/ws2/plan.md',
      'file:///etc/passwd',
      'file:///work/ws/./../../etc/shadow',
    ]) {
      const d = decide(uri);
      assert.equal(d.ok, false, uri);
      assert.ok(!d.ok && d.offerOpen && /outside the workspace folders/.test(d.reason), `${uri}: ${JSON.stringify(d)}`);
    }
    const none = decide('file:///work/ws/plan.md', []);
    assert.ok(!none.ok && none.offerOpen && /no folder is open/.test(none.reason));
  });

  it('never reads /proc, /sys or /dev, not even when the user asks, nor when they are the workspace', () => {
    for (const uri of [
      'file:///proc/self/environ',
      'file:///dev/zero',
      'file:///sys/kernel/notes',
      'file:///work/ws/../../proc/self/mem',
      'file:///dev/fd/0',
    ]) {
      for (const roots of [[ws], ['/'], 'anywhere'] as const) {
        const d = decide(uri, roots);
        assert.ok(!d.ok && !d.offerOpen && /system file/.test(d.reason), `${uri} ${String(roots)}: ${JSON.stringify(d)}`);
      }
    }
    assert.equal(decide('file:///procfs/plan.md', ['/']).ok, true, 'only the trees themselves');
  });

  it('refuses other schemes and remote hosts before any path is looked at', () => {
    assert.deepEqual(decide('https://example.com/plan.md'), { ok: false, reason: 'refused: only file: URIs are opened, not https:', offerOpen: false });
    assert.equal(decide('file://server/share/plan.md', 'anywhere').ok, false);
    assert.equal(decide('a'.repeat(100_000) + ':x').ok, false);
  });

  it('applies Windows rules to Windows paths', () => {
    const d = decidePlanFile('file:///C:/work/ws/../ws/plan.md', ['C:\\work\\ws'], path.win32);
    assert.deepEqual(d, { ok: true, path: 'C:\\work\\ws\\plan.md' });
    assert.equal(decidePlanFile('file:///D:/plan.md', ['C:\\work\\ws'], path.win32).ok, false);
  });
});
