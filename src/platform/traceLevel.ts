// The trace level is the user's choice, never a workspace's: a workspace that turned the verbose
// trace on could make the extension write every prompt, file and tool call to a log. The setting
// has `machine` scope (package.json: VS Code ignores it in workspace settings) and is read here
// from the user's value and the default only, whatever a workspace or folder says.

export type TraceLevel = 'off' | 'messages' | 'verbose';

/** What `WorkspaceConfiguration.inspect` returns, as far as this needs it. */
export interface SettingValues {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

export function userTraceLevel(values: SettingValues | undefined): TraceLevel {
  const v = values?.globalValue ?? values?.defaultValue;
  return v === 'messages' || v === 'verbose' ? v : 'off';
}
