// The words of why an agent's form or link cannot be shown: the protocol layer hands up a reason
// (a code and its data, ElicitationProblem in src/protocol/elicitation.ts); this says it in the
// window's language (`vscode.l10n` from the view that shows it; free of `vscode` itself so a unit
// test can read it in German). One sentence per code; a new code fails to compile here until it
// has its words.
import type { ElicitationProblem } from '../protocol/elicitation';
import type { L10n } from '../common/l10n';

export function elicitationProblemWords(p: ElicitationProblem, l10n: L10n): string {
  switch (p.code) {
    case 'no-schema':
      return l10n.t('the form has no schema');
    case 'schema-too-large':
      return l10n.t("the form's schema is {0} KB (the limit is {1} KB)", p.data.kb, p.data.limitKb);
    case 'schema-too-deep':
      return l10n.t("the form's schema is nested more than {0} levels deep", p.data.limit);
    case 'schema-not-object':
      return l10n.t("the form's schema is not an object");
    case 'too-many-fields':
      return l10n.t('the form has {0} fields (the limit is {1})', p.data.count, p.data.limit);
    case 'field-without-type':
      return l10n.t('field "{0}" has no type', p.data.field);
    case 'no-choices':
      return l10n.t('field "{0}": {1}', p.data.field, l10n.t('it offers no choices'));
    case 'too-many-options':
      return l10n.t('field "{0}": {1}', p.data.field, l10n.t('a choice has {0} options (the limit is {1})', p.data.count, p.data.limit));
    case 'no-valid-choices':
      return l10n.t('field "{0}": {1}', p.data.field, l10n.t('it offers no valid choices'));
    case 'url-missing':
      return l10n.t('the link is missing');
    case 'url-too-long':
      return l10n.t('the link is {0} characters long (the limit is {1})', p.data.length, p.data.limit);
    case 'url-invalid':
      return l10n.t('the link is not a valid URL');
    case 'url-not-web':
      return l10n.t('the link is not a web address ({0}); only http and https links are opened', p.data.scheme);
    case 'url-no-host':
      return l10n.t('the link has no host');
  }
  return p satisfies never;
}
