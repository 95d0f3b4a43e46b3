import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DEFAULT_USER_SETTINGS, type UpdateUserSettings, type UserSettings } from '@shared/settings-defaults';
import { useAuth } from '@client/features/auth';
import { fetchUserSettings, saveUserSettings, SETTINGS_PATH } from './api';

const settingsQueryKey = (userId: string | undefined) => [SETTINGS_PATH, userId] as const;

/**
 * The signed-in user's settings from the server (defaults while loading or when signed out).
 * The editor reads preferences.fontFamily / fontSize / focusModeDefault / autoSave / showWordCount from here.
 */
export function useUserSettings() {
  const { user } = useAuth();
  const query = useQuery({
    queryKey: settingsQueryKey(user?.id),
    queryFn: fetchUserSettings,
    enabled: !!user,
    // A failed read is retried when the writer asks (Try again), not by every component that mounts: the
    // settings dialog's error view would otherwise refetch on mount and flip back to its skeleton forever.
    retryOnMount: false,
  });
  const settings: UserSettings = query.data ?? DEFAULT_USER_SETTINGS;
  return {
    settings,
    preferences: settings.preferences,
    notifications: settings.notifications,
    /** The server's settings have arrived (until then `settings` are the defaults). */
    loaded: query.data !== undefined,
    isLoading: query.isLoading,
    isError: query.isError,
    error: query.error,
    refetch: query.refetch,
    isFetching: query.isFetching,
  };
}

/** Saves a partial update; the cache is updated at once (optimistic) and rolled back when the server refuses. */
export function useUpdateUserSettings() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const key = settingsQueryKey(user?.id);
  return useMutation({
    mutationFn: (update: UpdateUserSettings) => saveUserSettings(update),
    onMutate: async (update) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<UserSettings>(key);
      const base = previous ?? DEFAULT_USER_SETTINGS;
      queryClient.setQueryData<UserSettings>(key, {
        ...base,
        preferences: { ...base.preferences, ...update.preferences },
        notifications: { ...base.notifications, ...update.notifications },
      });
      return { previous };
    },
    onError: (_error, _update, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
      else queryClient.removeQueries({ queryKey: key });
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(key, saved);
    },
  });
}
