import { lazy, Suspense, useState } from 'react';
import { loadAccountSettingsDialog, type SettingsTab } from '@client/features/settings';

// The account settings dialog (features/settings), loaded the first time the user chip is clicked.
const AccountSettingsDialog = lazy(async () => ({
  default: await loadAccountSettingsDialog(),
}));

export function AccountDialog({
  open,
  onOpenChange,
  defaultTab,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  defaultTab?: SettingsTab;
}) {
  // Stays mounted after the first open so closing can animate.
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <AccountSettingsDialog open={open} onOpenChange={onOpenChange} defaultTab={defaultTab} />
    </Suspense>
  );
}
