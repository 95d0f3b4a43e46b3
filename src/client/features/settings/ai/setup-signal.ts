/**
 * Lets an AI error reach the setup card instead of a toast: while the card can be shown (an admin in the
 * editor), "AI is not configured" opens it; otherwise the caller shows its toast as before.
 */
type Listener = () => void;
let listener: Listener | undefined;

export function onAiSetupRequested(fn: Listener): () => void {
  listener = fn;
  return () => {
    if (listener === fn) listener = undefined;
  };
}

/** True when the setup card took the request (the caller then shows nothing else). */
export function requestAiSetup(): boolean {
  if (!listener) return false;
  listener();
  return true;
}
