/**
 * Every AI toast and message of SPEC §5 and §8, verbatim, in one place.
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
/** The assistant panel's inline alerts (SPEC §5: no trailing period). */
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

/** Thrown messages (SPEC §8). */
export const THROWN = {
  rewrite: 'Failed to rewrite content',
  tone: 'Failed to adjust tone',
  alternatives: 'Failed to get alternative phrasings',
  grammar: 'Failed to fix grammar',
  generateAlternatives: 'Failed to generate alternatives',
  outline: 'Failed to generate outline',
} as const;

/** Fallbacks (SPEC §8). */
export { ANALYSIS_FALLBACK_SUGGESTION } from '@shared/constants';
export const SUGGESTIONS_FALLBACK = ['Select text to get AI suggestions'];

export const AI_NOT_CONFIGURED_TITLE = 'AI is not configured';
export const AI_QUOTA_TITLE = 'AI token allowance used up';
