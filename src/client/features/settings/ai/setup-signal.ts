/**
 * How AI messages reach the AI settings: the editor registers an opener for an admin (who can add a provider),
 * and an "AI is not set up" message then carries an "Open AI settings" button. Without an opener (a member,
 * or no editor) the message says who can set AI up instead.
 */
type Opener = () => void;
let opener: Opener | undefined;

export function registerAiSettingsOpener(fn: Opener): () => void {
  opener = fn;
  return () => {
    if (opener === fn) opener = undefined;
  };
}

/** The way to the AI settings, when the signed-in user can change them here. */
export function aiSettingsOpener(): Opener | undefined {
  return opener;
}
