// Answers agent → client requests for the raw driver: permission answers by policy, and the v1
// client services (fs, terminal) through the real services in services.ts.
import type { InteropServices } from './services';
import { RpcError, type RequestHandler } from './rawClient';

export type PermissionPolicy = 'allow' | 'reject';
export interface RawPermission {
  params: Record<string, unknown>;
  answer: unknown;
}

type P = Record<string, never> & Record<string, unknown>;

/** Picks the option of the policy's kind (allow_once before allow_always, reject_once first). */
export function chooseOption(options: { optionId: string; kind: string }[], policy: PermissionPolicy): string | undefined {
  const order = policy === 'allow' ? ['allow_once', 'allow_always'] : ['reject_once', 'reject_always'];
  for (const kind of order) {
    const o = options.find((x) => x.kind === kind);
    if (o) return o.optionId;
  }
  return undefined;
}

export function rawHandlers(services: InteropServices, policy: PermissionPolicy, permissions: RawPermission[]): RequestHandler {
  return async (method, rawParams) => {
    const p = (rawParams ?? {}) as P;
    switch (method) {
      case 'session/request_permission': {
        const optionId = chooseOption((p.options as { optionId: string; kind: string }[]) ?? [], policy);
        const answer = { outcome: optionId ? { outcome: 'selected', optionId } : { outcome: 'cancelled' } };
        permissions.push({ params: p, answer });
        return answer;
      }
      case 'fs/read_text_file':
        return services.readTextFile(p as never);
      case 'fs/write_text_file':
        await services.writeTextFile(p as never);
        return {};
      case 'terminal/create':
        return services.terminal.create(p as never);
      case 'terminal/output':
        return services.terminal.output(p as never);
      case 'terminal/wait_for_exit':
        return services.terminal.waitForExit(p as never);
      case 'terminal/kill':
        await services.terminal.kill(p as never);
        return {};
      case 'terminal/release':
        await services.terminal.release(p as never);
        return {};
      default:
        throw new RpcError(-32601, `Method not found: ${method}`);
    }
  };
}
