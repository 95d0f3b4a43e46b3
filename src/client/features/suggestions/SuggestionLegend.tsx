/**
 * Explains the suggestion marks to someone who only reads the document (a share-link visitor the owner shows
 * pending suggestions to): the marks alone look like stray highlighting.
 */
export function SuggestionLegend() {
  return (
    <aside
      aria-label="Suggested changes"
      data-testid="suggestion-legend"
      className="mb-6 rounded-lg border bg-muted/40 px-4 py-3 text-sm"
    >
      <p className="font-medium">This document has suggested changes the owner has not reviewed yet.</p>
      <p className="mt-1 text-muted-foreground">
        <ins className="tracked-change">Underlined text</ins> is proposed to be added;{' '}
        <del className="tracked-change">struck-through text</del> is proposed to be removed.
      </p>
    </aside>
  );
}
