// ACP v2 method names (from the spec's v2 meta.json). The only place v2 names are written.
import type { MethodNames } from '../adapter';

export const V2_METHODS = {
  initialize: 'initialize',
  authenticate: 'auth/login',
  logout: 'auth/logout',
  sessionNew: 'session/new',
  sessionResume: 'session/resume',
  sessionList: 'session/list',
  sessionClose: 'session/close',
  sessionDelete: 'session/delete',
  sessionSetConfigOption: 'session/set_config_option',
  sessionPrompt: 'session/prompt',
  sessionCancel: 'session/cancel',
  cancelRequest: '$/cancel_request',
  sessionUpdate: 'session/update',
  requestPermission: 'session/request_permission',
  elicitationCreate: 'elicitation/create',
  elicitationComplete: 'elicitation/complete',
  terminalCancel: 'terminal/cancel',
  toolCallCancel: 'tool_call/cancel',
} as const satisfies MethodNames;
