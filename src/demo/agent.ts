// The built-in Demo Agent: a standalone ACP agent process (bundled as dist/demo-agent.js).
// NDJSON JSON-RPC 2.0 on stdin/stdout, logs on stderr. No network, no API key.
// Settings: see config.ts (ACP_DEMO_PROTOCOL, ACP_DEMO_DELAY_MS, ACP_DEMO_STATE_DIR).

import { readConfig } from './config';
import { LineReader } from './jsonrpc/ndjson';
import { Peer } from './jsonrpc/peer';
import { runLogin } from './scenarios/signin';
import { AgentServer } from './server';
import { SessionStore } from './session/store';

function log(text: string): void {
  process.stderr.write(`[demo-agent] ${text}\n`);
}

/** Exits once everything written to stdout has been handed to the OS. */
function exit(code: number): Promise<never> {
  return new Promise<never>(() => {
    process.stdout.write('', () => process.exit(code));
  });
}

function main(): void {
  const config = readConfig(process.env, process.argv.slice(2));
  if (config.login) {
    process.exitCode = runLogin(config, (t) => process.stdout.write(t));
    return;
  } // the terminal sign-in run
  const peer = new Peer((line) => void process.stdout.write(line), log);
  const store = new SessionStore(config.stateDir, log);
  peer.setHandler(new AgentServer({ peer, store, config, log, exit }));

  const reader = new LineReader((line) => peer.receive(line));
  process.stdin.on('data', (chunk: Buffer) => reader.push(chunk));
  process.stdin.on('end', () => {
    reader.end();
    peer.close(new Error('the client closed the connection'));
    void exit(0);
  });
  process.stdout.on('error', () => process.exit(0)); // the client went away
  log(`started (pid ${process.pid}, step delay ${config.delayMs} ms${config.forcedVersion ? `, forced v${config.forcedVersion}` : ''})`);
}

main();
