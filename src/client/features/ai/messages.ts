/**
 * Every AI toast and message, in one place (docs/product-rules.md#error-catalogue); tests match them
 * verbatim.
 */
export const NO_TEXT_SELECTED = 'No text selected';

export type SelectionPurpose =
  | 'complete'
  | 'improve'
  | 'rewrite'
  | 'check grammar'
  | 'summarize'
  | 'adjust tone'
  | 'find alternatives'
  | 'run the command on';

export const selectTextMessage = (purpose: SelectionPurpose) => `Please select some text to ${purpose}.`;
/** The assistant panel's inline alerts (no trailing period, unlike the toasts). */
export const panelSelectTextMessage = (purpose: 'improve' | 'summarize') =>
  `Please select some text to ${purpose}`;

export const ERROR_TITLE = 'Error';
export const FAILED = {
  improve: 'Failed to improve text. Please try again.',
  generate: 'Failed to generate content. Please try again.',
  outline: 'Failed to generate outline. Please try again.',
  summarize: 'Failed to summarize text. Please try again.',
  complete: 'Failed to complete text. Please try again.',
  rewrite: 'Failed to rewrite text. Please try again.',
  grammar: 'Failed to check grammar. Please try again.',
  command: 'Failed to run the command. Please try again.',
  alternatives: 'Failed to find alternatives. Please try again.',
} as const;

export const REWRITING_FAILED = {
  title: 'Rewriting Failed',
  description: 'Failed to rewrite the selected text. Please try again.',
};
export const TONE_FAILED = {
  title: 'Tone Adjustment Failed',
  description: 'Failed to adjust the tone. Please try again.',
};

export const SUCCESS = {
  improve: 'Text improved',
  generate: 'Content generated',
  outline: 'Outline generated',
  summarize: 'Text summarized',
  complete: 'Text completed',
  rewrite: 'Text rewritten',
  grammar: 'Grammar corrected',
  noIssues: 'No issues found',
  replaced: 'Text Replaced',
  copied: 'Copied',
  command: 'Command applied',
  alternative: 'Alternative applied',
} as const;

export const grammarFixedMessage = (count: number) => `Fixed ${count} grammar issues`;

/** With no AI provider: who can act on it, and where (Account settings → AI). */
export const AI_NOT_SET_UP_TITLE = 'AI is not set up yet';
export const AI_NOT_SET_UP_FOR_ADMIN = 'Add a provider in Settings → AI to use the AI actions.';
export const AI_NOT_SET_UP_FOR_MEMBER = 'An admin can add a provider in Settings → AI.';
export const OPEN_AI_SETTINGS = 'Open AI settings';
export const AI_QUOTA_TITLE = 'AI token allowance used up';
