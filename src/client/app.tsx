// Placeholder shell; the Web app issue replaces it with providers and the route table.
export function App() {
  return (
    <main className="min-h-screen grid place-items-center">
      <h1 className="text-3xl font-semibold">Quillwright</h1>
    </main>
  );
}
