// Feature: the Plans tree, the status bar item, the plan documents and commands (src/ui/plansUi.ts),
// with what other features add to its rows (intent plans, recording marks, step work, worktrees,
// sessions still being restored), and the context keys the menus and welcome views read.
import * as vscode from 'vscode';
import { DisposableStore } from '../../common/lifecycle';
import { SETTINGS } from '../../platform/config';
import { ContextKeys } from '../../ui/contextKeys';
import { createPlansUi } from '../../ui/plansUi';
import { warnSettingProblems } from '../../ui/agentSettingProblems';
import type { Feature } from '../host';
import { HISTORY, PLANS_VIEW, RECORDINGS, STEP_WORK, TEAM } from '../ports';

export const plansFeature: Feature = {
  name: 'plans',
  activate(host) {
    const owned = new DisposableStore();
    const history = host.port(HISTORY)?.history;
    const recordings = host.port(RECORDINGS);
    const team = host.port(TEAM);
    const ui = owned.add(
      createPlansUi(host.store, host.plans, {
        ...(history ? { restoring: history } : {}),
        intent: host.intent,
        ...(recordings ? { agentMarks: recordings } : {}),
        foldDoneStepsAfter: () => host.config.foldDoneStepsAfter(),
        transcript: host.transcript,
        work: host.work,
        ...(team ? { worktrees: team.sessions } : {}),
        timeline: async (ref) => host.port(STEP_WORK)?.showTimeline(ref),
        problems: { list: () => host.agents.configProblems, onDidChange: host.agents.onDidChangeConfigProblems },
      }),
    );
    owned.add(warnSettingProblems(host.agents));
    host.offer(PLANS_VIEW, ui);
    const configured = (): boolean => {
      const raw = host.config.agentsRaw();
      return (Array.isArray(raw) && raw.length > 0) || host.installed.list().length > 0;
    };
    const plansOfSession = {
      hasPlans: (agentId: string, sessionId: string) => host.plans.plans(agentId, sessionId).length > 0,
      onDidChange: host.plans.onDidChange,
    };
    owned.add(new ContextKeys(host.store, configured, host.installed.onDidChange, plansOfSession));
    owned.add(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`acp.${SETTINGS.foldDoneStepsAfter}`)) ui.tree.refreshAll();
      }),
    );
    return owned;
  },
};
