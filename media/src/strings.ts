// The page's words: the table the extension put in the page (src/ui/conversation/html.ts,
// `data-strings`, in the user's language), else English. Always shown with textContent.
import { english } from '../../src/common/l10n';
import { pageStrings, tableL10n, type PageStrings } from '../../src/ui/conversation/webviewStrings';

function read(): PageStrings {
  const fallback = pageStrings(english);
  try {
    const raw = document.getElementById('app')?.dataset.strings;
    if (!raw) return fallback;
    const given = JSON.parse(raw) as Partial<PageStrings>;
    // Any word the page was not given stays English.
    return { strings: { ...fallback.strings, ...given.strings }, form: { ...fallback.form, ...given.form } };
  } catch {
    return fallback;
  }
}

const page = read();
/** The words. */
export const S = page.strings;
/** checkForm's words. */
export const formL10n = tableL10n(page.form);
export { fill } from '../../src/ui/conversation/webviewStrings';
