// Sign-in: started with `--signin=<file>` (or ACP_DEMO_SIGNIN), the Demo Agent advertises one
// terminal auth method (run it again with `--login`, variable ACP_DEMO_ACCOUNT=demo) and answers auth_required (-32000) to
// session/new, load, resume and prompt until <file> exists. The terminal run (`--login`) creates
// the file and exits 0, as a real agent's login command would store its credentials. The `/signin`
// prompt reports the state.
import * as fs from 'fs';
import * as path from 'path';
import { readConfig, type DemoConfig } from '../config';
import { RpcError } from '../jsonrpc/peer';
import type { ProtocolVersion } from '../model';
import type { Scenario } from './scenario';

export const AUTH_REQUIRED = -32000;
export const LOGIN_METHOD_ID = 'demo-terminal-login';
/** What needs sign-in first. */
const GATED = new Set(['session/new', 'session/load', 'session/resume', 'session/prompt']);

/** The auth methods `initialize` lists: the terminal method only in sign-in mode. */
export function authMethods(config: DemoConfig, version: ProtocolVersion): object[] {
  if (!config.signinMarker) return [];
  const base = {
    type: 'terminal',
    name: 'Sign in to the Demo Agent',
    description: 'Runs the Demo Agent in a terminal to sign in (no account needed).',
    args: ['--login'],
  };
  return version === 1
    ? [{ ...base, id: LOGIN_METHOD_ID, env: { ACP_DEMO_ACCOUNT: 'demo' } }]
    : [{ ...base, methodId: LOGIN_METHOD_ID, env: [{ name: 'ACP_DEMO_ACCOUNT', value: 'demo' }] }];
}

/** Throws auth_required for a gated method while not signed in. */
export function checkSignedIn(config: DemoConfig, method: string): void {
  if (!config.signinMarker || !GATED.has(method) || fs.existsSync(config.signinMarker)) return;
  throw new RpcError(AUTH_REQUIRED, 'Authentication required: sign in with "Sign in to the Demo Agent" first.');
}

/** The `--login` run: what a person sees in the terminal; writes the marker and exits 0. */
export function runLogin(config: DemoConfig, write: (text: string) => void): number {
  if (!config.signinMarker) {
    write('The Demo Agent was not started in sign-in mode (--signin=<file>); nothing to do.\n');
    return 1;
  }
  write('Demo Agent sign-in\n');
  fs.mkdirSync(path.dirname(config.signinMarker), { recursive: true });
  fs.writeFileSync(config.signinMarker, `signed in ${new Date().toISOString()}\n`);
  write('Signed in. This terminal closes now; the agent restarts signed in.\n');
  return 0;
}

export const signinScenario: Scenario = {
  name: 'signin',
  description: 'Says whether the agent runs in sign-in mode and is signed in',
  run(turn) {
    const marker = readConfig(process.env, process.argv.slice(2)).signinMarker; // this process's own settings
    turn.say(
      marker
        ? `Signed in (sign-in mode, marker ${path.basename(marker)}).`
        : 'Not in sign-in mode: start the Demo Agent with --signin=<file> to try terminal sign-in.',
    );
    return Promise.resolve();
  },
};
