// The client services as AgentManager sees them, each loaded the first time an agent calls it
// (`terminal/*`: dist/terminals.js; `fs/*`: dist/files.js): until then nothing of them is parsed,
// and the handlers each connection gets are stand-ins that load the service and pass the call on.
// A terminal service not loaded yet holds no terminal, so releasing terminals before then does
// nothing. The handlers answer exactly as the services do (their RpcErrors keep their codes:
// src/common/brand.ts). Free of `vscode` itself.
import { lazyModule } from '../common/lazy';
import type * as Files from './fsService';
import type { FileHandlers, FileService, WrittenFile } from './fsService';
import type { FileAccessOptions } from './fileAccess';
import type * as Terminals from './terminalService';
import type { TerminalHandlers, TerminalService, TerminalServiceOptions } from './terminalService';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously (src/common/lazy.ts)
const terminalModule = lazyModule('terminals.js', () => require('./terminalService') as typeof Terminals);
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously (src/common/lazy.ts)
const fileModule = lazyModule('files.js', () => require('./fsService') as typeof Files);

/** What AgentManager asks of the terminal service. */
export type TerminalHost = Pick<TerminalService, 'forConnection'>;
/** What AgentManager asks of the file service. */
export type FileHost = Pick<FileService, 'forConnection'>;

/** TerminalService, loaded on the first `terminal/*` call of any agent. */
export class LazyTerminals implements TerminalHost {
  private service: TerminalService | undefined;

  constructor(private readonly options: TerminalServiceOptions) {}

  /** True once an agent has called a terminal service. */
  get loaded(): boolean {
    return this.service !== undefined;
  }

  forConnection(agentId: string): TerminalHandlers {
    let handlers: TerminalHandlers | undefined;
    // The service's own handlers for this connection, made on the connection's first call.
    const real = (): TerminalHandlers => (handlers ??= this.load().forConnection(agentId));
    return {
      create: async (p) => real().create(p),
      output: async (p) => real().output(p),
      waitForExit: async (p) => real().waitForExit(p),
      kill: async (p) => real().kill(p),
      release: async (p) => real().release(p),
    };
  }

  releaseAll(filter: { agentId?: string; sessionId?: string } = {}): void {
    this.service?.releaseAll(filter);
  }

  private load(): TerminalService {
    this.service ??= new (terminalModule().TerminalService)(this.options);
    return this.service;
  }
}

/** FileService, loaded on the first `fs/*` call of any agent. */
export class LazyFiles implements FileHost {
  private service: FileService | undefined;

  constructor(
    private readonly options: FileAccessOptions,
    private readonly onWrite?: (w: WrittenFile) => void,
  ) {}

  /** True once an agent has called a file service. */
  get loaded(): boolean {
    return this.service !== undefined;
  }

  forConnection(agentId: string): FileHandlers {
    let handlers: FileHandlers | undefined;
    const real = (): FileHandlers => (handlers ??= this.load().forConnection(agentId));
    return {
      readTextFile: async (p) => real().readTextFile(p),
      writeTextFile: async (p) => real().writeTextFile(p),
    };
  }

  private load(): FileService {
    this.service ??= new (fileModule().FileService)(this.options, this.onWrite);
    return this.service;
  }
}
