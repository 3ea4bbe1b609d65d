// The workbench's quick pick, read and clicked through the UI hook: the confirmations of the
// registry installer (Install, Update, Uninstall) are quick picks.
import { screenshot, uiClick, waitForUi } from '../ui';

export const QUICK_ROWS = '.quick-input-widget .monaco-list-row';
/** The quick input while shown (a hidden one stays in the DOM with display: none). */
export const SHOWN_PICK = '.quick-input-widget:not([style*="display: none"])';

/** Waits for the confirmation (a quick pick titled `title`), returns its rows, and picks the row starting with `button`. */
export async function confirm(title: string, button: string, shot?: string): Promise<string> {
  await waitForUi('.quick-input-widget .quick-input-title', (t) => t.some((x) => x.includes(title)));
  const rows = await waitForUi(QUICK_ROWS, (t) => t.some((x) => x.trim().startsWith(button)));
  if (shot) await screenshot(shot);
  await uiClick(QUICK_ROWS, button);
  const closed = (ms: number): Promise<boolean> =>
    waitForUi(`${SHOWN_PICK} .quick-input-title`, (t) => !t.some((x) => x.includes(title)), ms).then(
      () => true,
      () => false,
    );
  if (!(await closed(5000))) {
    // On a loaded machine a click can land while the list re-renders its rows and be lost; a
    // person would click again. The feature is still checked: a pick that never accepts fails here.
    console.log(`      (the click on "${button}" did not close "${title}"; clicking again)`);
    await uiClick(QUICK_ROWS, button).catch(() => undefined);
    if (!(await closed(10000))) throw new Error(`"${title}" stayed open after two clicks on "${button}"`);
  }
  return rows.join('\n');
}
