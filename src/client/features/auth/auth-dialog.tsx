import {
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import type { AuthDialogMode } from './types';

/** What the writer already typed elsewhere (the landing page's Get Started form): the dialog starts with it. */
export interface AuthDialogPrefill {
  fullName?: string;
  email?: string;
  password?: string;
}

interface AuthDialogContextValue {
  openAuthDialog(mode: AuthDialogMode, prefill?: AuthDialogPrefill): void;
}

const AuthDialogContext = createContext<AuthDialogContextValue | null>(null);

// The dialog (forms, Radix Dialog) is fetched on first open, keeping it out of the landing page's first bundle.
const loadAuthDialog = () => import('./AuthDialog');
const AuthDialog = lazy(async () => ({ default: (await loadAuthDialog()).AuthDialog }));

/** After the page settles, fetch the dialog so the first click opens it without a network wait. */
const PREFETCH_DELAY_MS = 2_500;

/** Mounts one auth dialog for the whole app; any component opens it with useAuthDialog().openAuthDialog(mode). */
export function AuthDialogProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const [mounted, setMounted] = useState(false);
  const [mode, setMode] = useState<AuthDialogMode>('signin');
  // A new prefill mounts a fresh dialog whose fields start from it.
  const [prefill, setPrefill] = useState<{ fields: AuthDialogPrefill; version: number } | null>(null);

  const openAuthDialog = useCallback((next: AuthDialogMode, fields?: AuthDialogPrefill) => {
    setMode(next);
    if (fields) setPrefill((previous) => ({ fields, version: (previous?.version ?? 0) + 1 }));
    setMounted(true);
    setOpen(true);
  }, []);

  useEffect(() => {
    const id = window.setTimeout(() => void loadAuthDialog().catch(() => {}), PREFETCH_DELAY_MS);
    return () => window.clearTimeout(id);
  }, []);

  const value = useMemo(() => ({ openAuthDialog }), [openAuthDialog]);

  return (
    <AuthDialogContext.Provider value={value}>
      {children}
      {mounted ? (
        <Suspense fallback={null}>
          <AuthDialog
            key={prefill?.version ?? 0}
            initial={prefill?.fields}
            open={open}
            mode={mode}
            onOpenChange={setOpen}
            onModeChange={setMode}
          />
        </Suspense>
      ) : null}
    </AuthDialogContext.Provider>
  );
}

export function useAuthDialog(): AuthDialogContextValue {
  const context = useContext(AuthDialogContext);
  if (!context) throw new Error('useAuthDialog must be used within an AuthDialogProvider');
  return context;
}
