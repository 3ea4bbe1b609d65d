// The checks on what an agent asks a command to run with (terminal/create, a terminal sign-in method).
import assert from 'node:assert/strict';
import { checkArgs, checkEnv, EnvRefusedError } from '../../../src/agents/terminalEnv';

describe("terminal sign-in: the method's arguments and variables", () => {
  it('keeps ordinary arguments and variables', () => {
    assert.deepEqual(checkArgs(['login', '--device']), ['login', '--device']);
    assert.deepEqual(checkArgs(undefined), []);
    assert.deepEqual({ ...checkEnv([{ name: 'AUTH_MODE', value: 'device' }]) }, { AUTH_MODE: 'device' });
  });

  it('refuses variables that run other code, and oversized or NUL arguments', () => {
    assert.throws(() => checkEnv([{ name: 'NODE_OPTIONS', value: '--require /tmp/x.js' }]), EnvRefusedError);
    assert.throws(() => checkEnv([{ name: 'LD_PRELOAD', value: '/tmp/x.so' }]), EnvRefusedError);
    assert.throws(() => checkArgs(Array.from({ length: 65 }, () => 'x')), /65 arguments/);
    assert.throws(() => checkArgs(['a'.repeat(4097)]), EnvRefusedError);
    assert.throws(() => checkArgs(['a\0b']), EnvRefusedError);
  });
});
