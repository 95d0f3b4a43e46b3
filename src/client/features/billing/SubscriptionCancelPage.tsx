// Placeholder until the Billing issue work lands.
export function SubscriptionCancelPage() {
  return <main className="p-8">Quillwright</main>;
}
