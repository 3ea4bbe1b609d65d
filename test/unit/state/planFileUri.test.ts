import assert from 'node:assert/strict';
import { checkPlanFileUri } from '../../../src/state/planFileUri';

describe('plan file URIs', () => {
  it('accepts absolute file: URIs', () => {
    assert.deepEqual(checkPlanFileUri('file:///tmp/plan.md'), { ok: true, uri: 'file:///tmp/plan.md' });
    assert.equal(checkPlanFileUri('file://localhost/tmp/plan.md').ok, true);
    assert.equal(checkPlanFileUri('file:///C:/work/plan.md').ok, true);
    assert.equal(checkPlanFileUri('FILE:///tmp/My%20Plan.md').ok, true);
  });

  it('refuses other schemes, relative paths, remote hosts and garbage, saying why', () => {
    const reason = (u: string) => { const r = checkPlanFileUri(u); return r.ok ? 'ok' : r.reason; };
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
