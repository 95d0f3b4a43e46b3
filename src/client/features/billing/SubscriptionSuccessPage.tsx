// Placeholder until the Billing issue work lands.
export function SubscriptionSuccessPage() {
  return <main className="p-8">Quillwright</main>;
}
