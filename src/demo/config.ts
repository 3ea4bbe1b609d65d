// Settings of the Demo Agent, from the environment or the command line (the command line wins):
//   ACP_DEMO_PROTOCOL=1|2    --protocol=1|2     always answer this protocol version
//   ACP_DEMO_DELAY_MS=<ms>   --delay=<ms>       pause between scripted steps (default 400; 0 in tests)
//   ACP_DEMO_STATE_DIR=<dir> --state-dir=<dir>  persist sessions as JSON in <dir>
//   ACP_DEMO_SIGNIN=<file>   --signin=<file>    ask for sign-in until <file> exists (scenarios/signin.ts)
//                            --login            the terminal sign-in run: creates that file and exits

export interface DemoConfig {
  forcedVersion?: 1 | 2;
  delayMs: number;
  stateDir?: string;
  /** Sign-in mode: the marker file whose existence means "signed in". */
  signinMarker?: string;
  /** Run as the terminal sign-in (not as an ACP agent). */
  login: boolean;
}

export const DEFAULT_DELAY_MS = 400;

function flag(argv: readonly string[], name: string): string | undefined {
  const prefix = `--${name}=`;
  const hit = [...argv].reverse().find((a) => a.startsWith(prefix));
  return hit?.slice(prefix.length);
}

export function readConfig(env: NodeJS.ProcessEnv, argv: readonly string[]): DemoConfig {
  const protocol = flag(argv, 'protocol') ?? env.ACP_DEMO_PROTOCOL;
  const delay = Number(flag(argv, 'delay') ?? env.ACP_DEMO_DELAY_MS ?? DEFAULT_DELAY_MS);
  const stateDir = flag(argv, 'state-dir') ?? env.ACP_DEMO_STATE_DIR;
  const signinMarker = flag(argv, 'signin') ?? env.ACP_DEMO_SIGNIN;
  return {
    login: argv.includes('--login'),
    ...(signinMarker ? { signinMarker } : {}),
    ...(protocol === '1' || protocol === '2' ? { forcedVersion: Number(protocol) as 1 | 2 } : {}),
    delayMs: Number.isFinite(delay) && delay >= 0 ? delay : DEFAULT_DELAY_MS,
    ...(stateDir ? { stateDir } : {}),
  };
}
