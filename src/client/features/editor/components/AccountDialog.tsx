import { lazy, Suspense, useState } from 'react';

// The account settings dialog (features/settings), loaded the first time the user chip is clicked.
const AccountSettingsDialog = lazy(async () => ({
  default: (await import('@client/features/settings/AccountSettingsDialog')).AccountSettingsDialog,
}));

export function AccountDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  // Stays mounted after the first open so closing can animate.
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <AccountSettingsDialog open={open} onOpenChange={onOpenChange} />
    </Suspense>
  );
}
