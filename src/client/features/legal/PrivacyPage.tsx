// Placeholder until the Web app issue work lands.
export function PrivacyPage() {
  return <main className="p-8">Quillwright</main>;
}
