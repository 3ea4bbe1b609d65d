// Inline permission prompts: shows a request in the transcript and waits for its answer, from
// whoever records it (the conversation view, a notification, a rule) or for cancellation.
import type { CancelToken, Disposable } from '../../protocol/api';
import type { PermissionOutcome, PermissionRequest } from '../../protocol/domain';
import type { Transcript } from './transcript';
import { permissionItemId } from './session';

export interface InlinePermissionOptions {
  /** Use this id (so other code can answer with `transcript.resolvePermission`); generated otherwise. */
  requestId?: string;
  /** Marks shown with the prompt, e.g. `not_in_plan`. */
  flags?: string[];
  /** Called with the request id as soon as the prompt is shown. */
  onShown?: (requestId: string) => void;
}

/**
 * Adds `req` to the transcript as a pending prompt and resolves with the outcome once it is
 * answered; on cancellation the prompt is marked cancelled and `{outcome:'cancelled'}` returned.
 * Never resolves to an approval by itself.
 */
export function askInline(transcript: Transcript, req: PermissionRequest, token?: CancelToken, opts: InlinePermissionOptions = {}): Promise<PermissionOutcome> {
  if (token?.isCancellationRequested) return Promise.resolve({ outcome: 'cancelled' });
  const requestId = transcript.addPermissionRequest(req, { requestId: opts.requestId, flags: opts.flags });
  const itemId = permissionItemId(requestId);
  return new Promise<PermissionOutcome>((resolve) => {
    const subs: Disposable[] = [];
    const done = (outcome: PermissionOutcome): void => {
      for (const d of subs) d.dispose();
      resolve(outcome);
    };
    const check = (): boolean => {
      const item = transcript.session(req.sessionId)?.item(itemId);
      if (!item || item.kind !== 'permission') { done({ outcome: 'cancelled' }); return true; }
      if (item.state === 'pending') return false;
      done(item.state === 'selected' && item.optionId !== null ? { outcome: 'selected', optionId: item.optionId } : { outcome: 'cancelled' });
      return true;
    };
    subs.push(transcript.onDidChange((c) => {
      if (c.sessionId !== req.sessionId) return;
      if ((c.kind === 'upsert' && c.itemId === itemId) || c.kind === 'reset') check();
    }));
    if (token) {
      subs.push(token.onCancellationRequested(() => {
        if (!transcript.resolvePermission(req.sessionId, requestId, { outcome: 'cancelled' })) check();
      }));
    }
    opts.onShown?.(requestId);
    check();
  });
}
