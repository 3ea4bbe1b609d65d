// `acp.trace.server` is the user's choice: a workspace can neither declare nor apply it.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { userTraceLevel } from '../../../src/platform/traceLevel';

describe('trace level', () => {
  it('ignores a workspace or folder value that turns the trace on', () => {
    assert.equal(userTraceLevel({ defaultValue: 'off', workspaceValue: 'verbose' }), 'off');
    assert.equal(userTraceLevel({ defaultValue: 'off', workspaceFolderValue: 'messages' }), 'off');
    assert.equal(userTraceLevel({ defaultValue: 'off', globalValue: 'off', workspaceValue: 'verbose' }), 'off');
  });

  it('follows the user setting, and reads anything else as off', () => {
    assert.equal(userTraceLevel({ defaultValue: 'off', globalValue: 'verbose', workspaceValue: 'off' }), 'verbose');
    assert.equal(userTraceLevel({ defaultValue: 'off', globalValue: 'messages' }), 'messages');
    assert.equal(userTraceLevel({ defaultValue: 'off', globalValue: 'VERBOSE' }), 'off');
    assert.equal(userTraceLevel(undefined), 'off');
  });

  it('is declared with a scope a workspace cannot set (package.json)', () => {
    const pkg = JSON.parse(readFileSync(path.join(process.cwd(), 'package.json'), 'utf8')) as {
      contributes: { configuration: { properties: Record<string, { scope?: string }> } | { properties: Record<string, { scope?: string }> }[] };
    };
    const conf = pkg.contributes.configuration;
    const props = Object.assign({}, ...(Array.isArray(conf) ? conf : [conf]).map((c) => c.properties)) as Record<string, { scope?: string }>;
    assert.ok(['machine', 'application'].includes(props['acp.trace.server']?.scope ?? ''), `scope: ${props['acp.trace.server']?.scope}`);
  });
});
