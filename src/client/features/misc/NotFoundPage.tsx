// Placeholder until the Web app issue work lands.
export function NotFoundPage() {
  return <main className="p-8">Quillwright</main>;
}
