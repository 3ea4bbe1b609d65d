// The workbench's notifications, read through the UI hook: the list every toast also lands in.
import * as vscode from 'vscode';
import { screenshot, uiTexts, waitForUi } from '../ui';

export const NOTES = '.notifications-list-container .notification-list-item';

/**
 * Opens the notification list and waits for a notification matching `text`; returns its text.
 * The list is opened again every 5 s while the notification is not in it (one CI run, on a loaded
 * machine, did not find a progress notification within 15 s; why is not known, and reopening the
 * list costs nothing). On failure: a screenshot, and what the toasts and the center showed.
 */
export async function toastWith(text: string | RegExp, ms = 15000): Promise<string> {
  const match = (t: string): boolean => (typeof text === 'string' ? t.includes(text) : text.test(t));
  const end = Date.now() + ms;
  for (;;) {
    await vscode.commands.executeCommand('notifications.showList');
    const left = end - Date.now();
    const texts = await waitForUi(NOTES, (t) => t.some(match), Math.min(5000, Math.max(left, 0))).catch(async (err: unknown) => {
      if (Date.now() < end) return undefined;
      const shot = await screenshot('toast-missing');
      const shown = await uiTexts('.notifications-toasts, .notification-toast, .notifications-center');
      throw new Error(`${err instanceof Error ? err.message : String(err)}; toasts/center: ${JSON.stringify(shown)}; ${shot}`);
    });
    if (texts) return texts.find(match)!;
    await vscode.commands.executeCommand('notifications.hideList');
  }
}

/** Clears every notification and closes the list. */
export async function clearNotes(): Promise<void> {
  await vscode.commands.executeCommand('notifications.clearAll');
  await vscode.commands.executeCommand('notifications.hideList');
}
