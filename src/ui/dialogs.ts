// The VS Code dialogs an agent's requests lead to, one bundle loaded the first time one is shown
// (dist/dialogs.js, through lazyDialogs.ts): a permission request's notification and rule pick,
// the sign-in prompts and terminal confirmation, and an elicitation asked outside a conversation.
export { vscodeConsentUi } from './permissionPrompts';
export { vscodeSignInUi } from './signInPrompts';
export { vscodeElicitationUi } from './elicitationPrompts';
