// Feature: the conversation (a webview view and a panel over the Transcript). Its user actions go
// straight to the services that act on them; the active session is the one it shows; a new live
// session is revealed in the Plans tree.
import * as vscode from 'vscode';
import { DisposableStore } from '../../common/lifecycle';
import { parseSessionKey, sessionKey, type SessionKey } from '../../state/sessionStore';
import { Conversation } from '../../ui/conversation';
import type { Feature, FeatureHost } from '../host';
import { CONVERSATION, PLANS_VIEW } from '../ports';

export const conversationFeature: Feature = {
  name: 'conversation',
  activate(host) {
    const owned = new DisposableStore();
    const conversation = owned.add(
      new Conversation({
        extensionUri: host.context.extensionUri,
        transcript: host.transcript,
        log: host.logs.main,
        // The conversation knows sessions by sessionKey(agent, session).
        promptCapabilities: (key) => {
          const ref = parseSessionKey(key);
          return ref && host.agents.get(ref.agentId)?.connection?.capabilities.prompt;
        },
        sessionFacts: {
          get: (key) => {
            const ref = parseSessionKey(key);
            const s = ref && host.store.session(ref.agentId, ref.sessionId);
            const prompt = s && host.agents.get(s.agentId)?.connection?.capabilities.prompt;
            // Steer is offered while a turn runs and the agent advertised steering (src/app/steering).
            const facts = s && { ...s, steering: host.agents.get(s.agentId)?.connection?.steering === true };
            return facts && (prompt ? { ...facts, accepts: { image: prompt.image, audio: prompt.audio } } : facts);
          },
          onDidChange: (listener) =>
            host.store.onDidChange((c) => {
              if (c.scope === 'session') listener(sessionKey(c.agentId, c.sessionId));
            }),
        },
      }),
    );
    owned.add(conversation.registerView());
    owned.add(vscode.commands.registerCommand('acp.openConversation', () => conversation.openPanel()));
    wireActions(host, conversation, owned);
    host.offer(CONVERSATION, conversation);
    return owned;
  },
};

/** The conversation's user actions, each to the one service that acts on it; failures are said. */
function wireActions(host: FeatureHost, c: Conversation, owned: DisposableStore): void {
  const act = (key: string, f: (ref: SessionKey) => unknown): void => {
    const ref = parseSessionKey(key);
    if (!ref) return;
    Promise.resolve()
      .then(() => f(ref))
      .catch((err: unknown) => void vscode.window.showErrorMessage(err instanceof Error ? err.message : String(err)));
  };
  owned.add(c.onDidSelectPermissionOption((p) => void host.broker.choose(p.requestId, { index: p.option })));
  owned.add(c.onDidAnswerElicitation((p) => void host.elicitations.answer(p.requestId, p.action, p.values)));
  owned.add(c.onDidRequestCancel(({ sessionId }) => act(sessionId, (ref) => host.actions.cancel(ref))));
  owned.add(c.onDidSetConfigOption(({ sessionId, configId, value }) => act(sessionId, (ref) => host.actions.setConfigOption(ref, configId, value))));
  owned.add(c.onDidRemoveQueuedPrompt(({ sessionId, id }) => act(sessionId, (ref) => host.actions.removeQueued(ref, id))));
  owned.add(
    c.onDidSubmitPrompt((p) => {
      const active = host.store.activeSession;
      const key = p.sessionId ?? (active && sessionKey(active.agentId, active.sessionId));
      if (key) act(key, (ref) => (p.steer ? host.actions.steer(ref, p.blocks) : host.actions.prompt(ref, p.blocks)));
      else void vscode.commands.executeCommand('acp.sendPrompt', p.text); // offers to start an agent
    }),
  );
  owned.add(
    host.store.onDidChange((ch) => {
      if (ch.scope === 'active') c.setActiveSession(ch.current && sessionKey(ch.current.agentId, ch.current.sessionId));
      const added = ch.scope === 'session' && ch.kind === 'added' ? host.store.session(ch.agentId, ch.sessionId) : undefined;
      if (added?.live && !added.parentSessionId) void revealSession(host, added);
    }),
  );
}

/** Shows a new session in the Plans view, expanded under its agent (without taking focus). */
async function revealSession(host: FeatureHost, ref: SessionKey): Promise<void> {
  const plans = host.port(PLANS_VIEW);
  if (!plans) return;
  const tree = plans.tree;
  const agent = tree.getChildren().find((n) => n.kind === 'agent' && n.agentId === ref.agentId);
  const session = agent && tree.getChildren(agent).find((n) => n.kind === 'session' && n.sessionId === ref.sessionId);
  if (session) await plans.treeView.reveal(session, { expand: true, select: false, focus: false }).then(undefined, () => undefined);
}
