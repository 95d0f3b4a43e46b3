export { useUpdateUserSettings, useUserSettings } from './queries';
export { ThemeProvider } from './theme';
export { aiSettingsOpener, registerAiSettingsOpener } from './ai/setup-signal';
export { useAiHealth } from './ai/health';
export { AiSetupNotice } from './ai/AiSetupNotice';
export type { SettingsTab } from './AccountSettingsDialog';

/** Account settings (every tab and its libraries) load when the dialog is first opened. */
export const loadAccountSettingsDialog = async () =>
  (await import('./AccountSettingsDialog')).AccountSettingsDialog;
