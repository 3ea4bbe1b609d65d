// Feature: a team of agents in git worktrees (src/app/team, src/ui/team): the worktree sessions'
// owner, the team commands and status item. It offers the folders each session may use (the file
// service asks at each call) and the worktree sessions (the Plans tree groups them; the history
// tells it which restored sessions work in a worktree).
import type { Feature } from '../host';
import { HISTORY, TEAM } from '../ports';
import { createTeam } from '../teamWiring';

export const teamFeature: Feature = {
  name: 'team',
  activate(host) {
    const team = createTeam(
      {
        store: host.store,
        plans: host.plans,
        config: host.config,
        actions: host.actions,
        logs: host.logs,
        get history() {
          return host.port(HISTORY)?.history;
        },
      },
      host.context,
    );
    host.offer(TEAM, team);
    return team;
  },
};
