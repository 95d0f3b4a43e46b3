import { cleanup, render, screen } from '@testing-library/react';
import { Component, type ReactNode } from 'react';
import { afterEach, expect, it, vi } from 'vitest';
import { onDemand, pageOnDemand } from './on-demand';

afterEach(cleanup);

function Spinner() {
  return <p>Loading…</p>;
}

function Page({ name }: { name: string }) {
  return <h1>Hello {name}</h1>;
}

class Boundary extends Component<{ children: ReactNode }, { error: string | null }> {
  override state = { error: null as string | null };
  static getDerivedStateFromError(error: Error) {
    return { error: error.message };
  }
  override render() {
    return this.state.error ? <p role="alert">{this.state.error}</p> : this.props.children;
  }
}

it('shows the fallback until the page’s code is in, then the page with its props', async () => {
  let arrive!: (page: typeof Page) => void;
  const part = onDemand(() => new Promise<typeof Page>((resolve) => (arrive = resolve)));
  const OnDemandPage = pageOnDemand(part, Spinner);
  render(<OnDemandPage name="writer" />);
  expect(screen.getByText('Loading…')).toBeTruthy();
  arrive(Page);
  expect(await screen.findByRole('heading', { name: 'Hello writer' })).toBeTruthy();
  expect(screen.queryByText('Loading…')).toBeNull();
});

it('draws a page whose code is already here at once, without the fallback', async () => {
  const part = onDemand(() => Promise.resolve(Page));
  await part.load();
  const OnDemandPage = pageOnDemand(part, Spinner);
  render(<OnDemandPage name="again" />);
  expect(screen.getByRole('heading', { name: 'Hello again' })).toBeTruthy();
  expect(screen.queryByText('Loading…')).toBeNull();
});

it('throws a failed fetch while rendering, to the nearest error boundary', async () => {
  // React reports the error it hands to the boundary; the test's output need not carry it.
  const reported = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const part = onDemand<{ name: string }>(() => Promise.reject(new Error('offline')));
  const OnDemandPage = pageOnDemand(part, Spinner);
  render(
    <Boundary>
      <OnDemandPage name="writer" />
    </Boundary>,
  );
  expect((await screen.findByRole('alert')).textContent).toBe('offline');
  reported.mockRestore();
});
