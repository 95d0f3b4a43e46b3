// Placeholder until the Web app issue work lands.
export function TermsPage() {
  return <main className="p-8">Quillwright</main>;
}
