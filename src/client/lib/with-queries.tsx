import { QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { useContext, type ComponentType } from 'react';
import { queryClient } from './query-client';

/**
 * The component inside the app's QueryClientProvider. Pages and the lazy parts that read server data are wrapped
 * as they load (routes.tsx), instead of the whole app, so the landing page never downloads TanStack Query; every
 * wrapper shares the one client, so the cache outlives a change of page. A client already provided above (a
 * test's) is kept.
 */
export function withQueries<P extends object>(Component: ComponentType<P>): ComponentType<P> {
  function WithQueries(props: P) {
    const outer = useContext(QueryClientContext);
    return (
      <QueryClientProvider client={outer ?? queryClient}>
        <Component {...props} />
      </QueryClientProvider>
    );
  }
  WithQueries.displayName = `WithQueries(${Component.displayName ?? Component.name})`;
  return WithQueries;
}
