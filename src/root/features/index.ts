// The features, in activation order. A feature that needs another's port at activation comes
// after it (src/root/ports.ts says who offers what); ports asked for at run time may come from any.
// Adding a feature: its module in this folder (one entry, `activate(host)`), one line here.
import type { Feature } from '../host';
import { checkpointsFeature } from './checkpoints';
import { conversationFeature } from './conversation';
import { historyFeature } from './history';
import { notificationsFeature } from './notifications';
import { plansFeature } from './plans';
import { recordingsFeature } from './recordings';
import { registryFeature } from './registry';
import { reviewFeature } from './review';
import { sessionsFeature } from './sessions';
import { sessionManagementFeature } from './sessionManagement';
import { teamFeature } from './team';
import { usageFeature } from './usage';

export const FEATURES: readonly Feature[] = [
  recordingsFeature, // offers the wire tap and the agent rows' marks
  conversationFeature, // offers the conversation (step work shows diffs in it)
  teamFeature, // offers the worktree sessions and each session's folders
  checkpointsFeature, // offers checkpoints and step work (needs the conversation)
  historyFeature, // records the session events; restores once all are active
  plansFeature, // the Plans tree (needs history, recordings, team; step work at run time)
  notificationsFeature, // needs the Plans tree and the conversation at run time
  registryFeature,
  sessionsFeature,
  sessionManagementFeature, // fork, archive, rename: needs the Plans tree
  usageFeature, // counts live and replayed events: any place after the history
  reviewFeature, // review comments: needs the history and the Plans tree at activation
];
