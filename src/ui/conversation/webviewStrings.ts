// The conversation webview's fixed words. The webview cannot call `vscode.l10n`, so the host words
// them once (`webviewStrings(vscode.l10n)`) and hands the table to the page in its HTML
// (html.ts, `data-strings`); the webview (media/src/strings.ts) starts from the English table and
// shows every word with textContent. Templates keep their `{0}` (filled in the webview with
// `fill`). `formMessages` are checkForm's messages (src/state/elicitationValues.ts), English →
// translated, for the checks the webview runs as the user submits. Pure (no `vscode`).
import { english, type L10n, type L10nArg } from '../../common/l10n';

export function webviewStrings(l10n: L10n = english) {
  return {
    conversation: l10n.t('Conversation'),
    sessionN: l10n.t('Session {0}'),
    working: l10n.t('Working…'),
    waitingForYou: l10n.t('Waiting for you'),
    idle: l10n.t('Idle'),
    tokens: l10n.t('{0} / {1} tokens{2}'),
    prompt: l10n.t('Prompt'),
    send: l10n.t('Send'),
    sendTitle: l10n.t('Send (Enter)'),
    queue: l10n.t('Queue'),
    queueTitle: l10n.t('The agent is working: the prompt is sent when the turn ends'),
    steer: l10n.t('Steer'),
    steerTitle: l10n.t('Send into the running turn now (Ctrl+Enter)'),
    steered: l10n.t('steered'),
    cancel: l10n.t('Cancel'),
    attach: l10n.t('Attach…'),
    attachTitle: l10n.t('Attach images or audio (or paste / drop them into the prompt)'),
    placeholder: l10n.t('Message the agent (Enter to send, Shift+Enter for a new line, @ for files, / for commands)'),
    noSession: l10n.t('No session. Start an agent first.'),
    newSession: l10n.t('New Session'),
    sessionEnded: l10n.t('Ended (read-only)'),
    newSessionTitle: l10n.t('Start a new session with the same agent (this one stays read-only)'),
    remove: l10n.t('Remove'),
    removeFromQueue: l10n.t('Remove from queue'),
    queued: l10n.t('Queued ({0})'),
    submitted: l10n.t('Submitted'),
    declined: l10n.t('Declined'),
    cancelled: l10n.t('Cancelled'),
    done: l10n.t('Done'),
    linkFromAgent: l10n.t('Link from the agent'),
    agentAsks: l10n.t('The agent asks'),
    opensPageOn: l10n.t('Opens a page on '),
    requestAsSent: l10n.t('Request as sent'),
    openHost: l10n.t('Open {0}'),
    link: l10n.t('link'),
    submit: l10n.t('Submit'),
    decline: l10n.t('Decline'),
    you: l10n.t('You'),
    agent: l10n.t('Agent'),
    thinking: l10n.t('Thinking'),
    compactionSummary: l10n.t('Summary of the compacted context'),
    input: l10n.t('Input'),
    output: l10n.t('Output'),
    openDiff: l10n.t('Open Diff'),
    diffPreview: l10n.t('Changes in {0}'),
    planApproval: l10n.t('Plan approval'),
    permission: l10n.t('Permission'),
    answered: l10n.t('Answered: {0}'),
    noPlanText: l10n.t('The agent sent no plan text with this request: read its plan in the Plans view or above.'),
    planToApprove: l10n.t('The plan to approve'),
    planTruncated: l10n.t('The plan is longer than shown here: open it from the Plans view.'),
    notInPlan: l10n.t('Not in plan'),
    turnEnded: l10n.t('Turn ended'),
    stoppedTokens: l10n.t('Stopped: token limit reached'),
    stoppedRequests: l10n.t('Stopped: request limit reached'),
    agentRefused: l10n.t('The agent refused'),
    turnFailed: l10n.t('Turn failed'),
    turnEndedWhy: l10n.t('Turn ended ({0})'),
    agentWaits: l10n.t('The agent is waiting for you.'),
    agentFinished: l10n.t('The agent finished.'),
    agentFinishedText: l10n.t('The agent finished: {0}'),
    pasted: l10n.t('pasted {0}'),
    noImages: l10n.t('{0} was not attached: this agent does not accept images.'),
    noAudio: l10n.t('{0} was not attached: this agent does not accept audio.'),
    tooBig: l10n.t('{0} was not attached: it is {1}, larger than {2}. Make it smaller and attach it again.'),
    tooMany: l10n.t('{0} was not attached: {1} files at most go with one prompt.'),
    badUpdate: l10n.t('Malformed "{0}" update rejected: {1}'),
    unsupportedUpdate: l10n.t('Update not supported: {0}'),
    messageFromTo: l10n.t('Message from {0} to {1}'),
    unknownField: l10n.t('A kind of field this client cannot show ({0})'),
    forToolCall: l10n.t('For tool call {0}'),
    expectedForm: l10n.t('Expected form: {0}'),
    terminal: l10n.t('Terminal'),
    terminalIn: l10n.t(' in {0}'),
    running: l10n.t(' · running'),
    earlierOutput: l10n.t('… (earlier output not shown)'),
    lastTurn: l10n.t('Last turn: {0}'),
    showAll: l10n.t('Show all'),
    showEarlier: l10n.t('Show earlier ({0} more)'),
    noMessages: l10n.t('No messages yet.'),
    noSessionYet: l10n.t('No session. Start an agent to begin a conversation.'),
    moreRows: l10n.t('… {0} more rows not shown'),
    moreColumns: l10n.t('… {0} more columns not shown'),
    moreColumnsRows: l10n.t('… {0} more columns and {1} more rows not shown'),
    imageLink: l10n.t('[image: {0}]'),
    image: l10n.t('[image {0}]'),
    imageAt: l10n.t('[image {0} {1}]'),
    binaryContent: l10n.t('(binary content)'),
    choose: l10n.t('— choose —'),
    moreLines: l10n.t('… {0} more lines'),
    couldNotRead: l10n.t('{0} could not be read.'),
  };
}

export type WebviewStrings = ReturnType<typeof webviewStrings>;

/** checkForm's messages, English → in `l10n`'s words (templates keep their `{0}`). */
export function formMessages(l10n: L10n = english): Record<string, string> {
  return {
    'This field is of a kind this client cannot show ("{0}"); decline or cancel instead.': l10n.t(
      'This field is of a kind this client cannot show ("{0}"); decline or cancel instead.',
    ),
    'Required.': l10n.t('Required.'),
    'At most {0} characters.': l10n.t('At most {0} characters.'),
    'Pick one of the choices.': l10n.t('Pick one of the choices.'),
    'Enter a whole number.': l10n.t('Enter a whole number.'),
    'Enter a number.': l10n.t('Enter a number.'),
    'Must be at least {0}.': l10n.t('Must be at least {0}.'),
    'Must be at most {0}.': l10n.t('Must be at most {0}.'),
    'At least 1 character.': l10n.t('At least 1 character.'),
    'At least {0} characters.': l10n.t('At least {0} characters.'),
    'At most 1 character.': l10n.t('At most 1 character.'),
    'Enter an email address, like name@example.com.': l10n.t('Enter an email address, like name@example.com.'),
    'Enter a full address, like https://example.com/page.': l10n.t('Enter a full address, like https://example.com/page.'),
    'Enter a date as YYYY-MM-DD.': l10n.t('Enter a date as YYYY-MM-DD.'),
    'Enter a date and time, like 2026-12-01T18:00.': l10n.t('Enter a date and time, like 2026-12-01T18:00.'),
    'Choose at least one.': l10n.t('Choose at least one.'),
    'Choose at least {0}.': l10n.t('Choose at least {0}.'),
    'Choose at most {0}.': l10n.t('Choose at most {0}.'),
  };
}

/** What the page gets: the words and checkForm's messages. */
export interface PageStrings {
  readonly strings: WebviewStrings;
  readonly form: Record<string, string>;
}

export function pageStrings(l10n: L10n = english): PageStrings {
  return { strings: webviewStrings(l10n), form: formMessages(l10n) };
}

/** A template's `{n}` filled in (as vscode.l10n.t does). */
export function fill(template: string, ...args: L10nArg[]): string {
  return english.t(template, ...args);
}

/** An L10n over a table of translated templates (for the webview's form checks). */
export function tableL10n(table: Record<string, string>): L10n {
  return {
    t(first: string | { message: string; args?: L10nArg[] | Record<string, unknown>; comment: string | string[] }, ...rest: unknown[]): string {
      const message = typeof first === 'string' ? first : first.message;
      const template = Object.prototype.hasOwnProperty.call(table, message) ? table[message]! : message;
      return typeof first === 'string' ? english.t(template, ...(rest as L10nArg[])) : english.t({ ...first, message: template });
    },
  } as L10n;
}
