// The log channels commands write their failures to and open on request ("Show Log"): the ACP
// channel and the ACP Trace channel, as VS Code log channels (the agents layer's Logs has them).
import type * as vscode from 'vscode';

export interface CommandLog {
  readonly main: vscode.LogOutputChannel;
  readonly trace: vscode.LogOutputChannel;
}
