// Placeholder until the Editor issue work lands.
export function EditorPage() {
  return <main className="p-8">Quillwright</main>;
}
