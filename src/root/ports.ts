// The ports features offer each other (src/root/host.ts): each key names its offerer, which comes
// earlier in the feature list (src/root/features.ts) than every feature that needs it at activation.
// A port asked for later, at run time, may come from any feature.
import type { SessionHistory } from '../app/history/sessionHistory';
import type { Checkpoints } from '../app/checkpoints/checkpoints';
import type { Recordings } from '../recording/recordings';
import type { Conversation } from '../ui/conversation';
import type { ConsentAttention } from '../ui/permissionPrompts';
import type { PlansUi } from '../ui/plansUi';
import type { WorkCommands } from '../ui/workCommands';
import { PortKey } from './host';
import type { TeamParts } from './features/team';
import type { ReviewParts } from './features/review';

/** The conversation view and panel (feature: conversation). */
export const CONVERSATION = new PortKey<Conversation>('conversation');
/** The team of agents: worktree sessions and the folders each session may use (feature: team). */
export const TEAM = new PortKey<TeamParts>('team');
/** The durable session history and its folder (feature: history; absent without workspace storage or when turned off). */
export const HISTORY = new PortKey<{ readonly history: SessionHistory; readonly dir: string }>('history');
/** Checkpoints of the workspace folders (feature: checkpoints; absent without workspace storage). */
export const CHECKPOINTS = new PortKey<Checkpoints>('checkpoints');
/** A step's work: review, show, revert, rewind, timeline (feature: checkpoints and step work). */
export const STEP_WORK = new PortKey<WorkCommands>('step work');
/** Recording and replay of agent traffic (feature: recordings). */
export const RECORDINGS = new PortKey<Recordings>('recordings');
/** The Plans tree, its status bar item and the plan documents (feature: plans). */
export const PLANS_VIEW = new PortKey<PlansUi>('plans view');
/** Whether a permission request should follow the user out of the window (feature: notifications). */
export const ATTENTION = new PortKey<ConsentAttention>('attention');
/** The review comments and their threads in the editors (feature: review; offered for tests and later features). */
export const REVIEW = new PortKey<ReviewParts>('review');
