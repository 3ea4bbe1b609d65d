// Feature: notifications that follow the user (src/app/attention.ts) when the ACP views are out of
// sight or the window is unfocused (setting acp.notifications.whenUnfocused); it offers the
// permission prompts whether a request should follow the user.
import { AttentionWatcher } from '../../app/attention';
import { vscodeAttentionUi } from '../../ui/attentionPrompts';
import type { Feature } from '../host';
import { ATTENTION, CONVERSATION, PLANS_VIEW } from '../ports';

export const notificationsFeature: Feature = {
  name: 'notifications',
  activate(host) {
    const ui = vscodeAttentionUi({
      enabled: () => host.config.notifyWhenUnfocused(),
      plansVisible: () => host.port(PLANS_VIEW)?.treeView.visible ?? false,
      conversationVisible: () => host.port(CONVERSATION)?.visible ?? false,
      activate: (ref) => host.store.setActiveSession(ref),
    });
    host.offer(ATTENTION, ui);
    return new AttentionWatcher(host.store, ui);
  },
};
