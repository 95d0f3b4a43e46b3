// Placeholder until the Sharing issue work lands.
export function SharedDocumentPage() {
  return <main className="p-8">Quillwright</main>;
}
