// The deny-list on what an agent asks a terminal/create command to run with (a terminal sign-in
// method's variables and arguments are checked by src/app/signInEnv.ts, test/unit/app/signInEnv.test.ts).
import assert from 'node:assert/strict';
import { checkEnv, EnvRefusedError } from '../../../src/agents/terminalEnv';

describe('terminal/create: the agent variables', () => {
  it('keeps ordinary variables', () => {
    assert.deepEqual({ ...checkEnv([{ name: 'AUTH_MODE', value: 'device' }]) }, { AUTH_MODE: 'device' });
  });

  it('refuses variables that run other code', () => {
    assert.throws(() => checkEnv([{ name: 'NODE_OPTIONS', value: '--require /tmp/x.js' }]), EnvRefusedError);
    assert.throws(() => checkEnv([{ name: 'LD_PRELOAD', value: '/tmp/x.so' }]), EnvRefusedError);
  });
});
