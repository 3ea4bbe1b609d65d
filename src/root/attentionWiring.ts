// Notifications that follow the user (src/app/attention.ts), wired to the views that say whether
// the user can see the ACP views, and to the setting acp.notifications.whenUnfocused.
import type { Disposable } from '../common/lifecycle';
import { AttentionWatcher } from '../app/attention';
import type { Config } from '../platform/config';
import type { SessionStore } from '../state/sessionStore';
import { vscodeAttentionUi } from '../ui/attentionPrompts';
import type { ConsentAttention } from '../ui/permissionPrompts';

export interface AttentionWiring {
  readonly watcher: Disposable;
  readonly consent: ConsentAttention;
}

export interface AttentionSources {
  readonly store: SessionStore;
  readonly config: Config;
  readonly plansUi: { readonly treeView: { readonly visible: boolean } };
  readonly conversation: { readonly visible: boolean };
}

export function wireAttention(x: AttentionSources): AttentionWiring {
  const ui = vscodeAttentionUi({
    enabled: () => x.config.notifyWhenUnfocused(),
    plansVisible: () => x.plansUi.treeView.visible,
    conversationVisible: () => x.conversation.visible,
    activate: (ref) => x.store.setActiveSession(ref),
  });
  return { watcher: new AttentionWatcher(x.store, ui), consent: ui };
}
