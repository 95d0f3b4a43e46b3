// Placeholder until the Web app issue work lands.
export function LandingPage() {
  return <main className="p-8">Quillwright</main>;
}
