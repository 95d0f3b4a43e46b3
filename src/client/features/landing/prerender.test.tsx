import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { beforeAll, expect, it } from 'vitest';
import { App } from '@client/app';
import { preloadLandingPage } from '@client/routes';
import { HERO_TAGLINE } from './Hero';
import { renderLandingPage } from './prerender';

beforeAll(() => {
  // jsdom has no media queries; the landing page asks for the reduced-motion preference.
  window.matchMedia = (media: string) =>
    ({
      matches: false,
      media,
      addEventListener: () => {},
      removeEventListener: () => {},
    }) as unknown as MediaQueryList;
});

/**
 * The page as the browser holds it: elements with their attributes in a fixed order and inline styles as the
 * browser reads them, and text. Markup that differs only in how it is written (attribute order, `style` spacing,
 * React's comment markers) gives the same description.
 */
function describe(node: Node): string {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? '';
  if (!(node instanceof Element)) return '';
  const attributes = [...node.attributes]
    .map((attribute) =>
      attribute.name === 'style'
        ? `style=${(node as HTMLElement).style.cssText}`
        : `${attribute.name}=${attribute.value}`,
    )
    .sort();
  return `<${node.localName} ${attributes.join(' ')}>${[...node.childNodes].map(describe).join('')}</>`;
}

function parse(html: string): HTMLElement {
  const element = document.createElement('div');
  element.innerHTML = html;
  return element;
}

it('the landing markup written at build time is exactly what the app first draws at `/`', async () => {
  const built = await renderLandingPage();
  const page = parse(built);
  expect(page.querySelector('h1')?.textContent).toBe('The modern writer’s workshop');
  // The tagline is readable before any script runs (its typing animation starts later).
  expect(page.querySelector('[data-testid="typing-text"]')?.textContent).toBe(HERO_TAGLINE);
  expect(page.textContent).toContain('Start Writing');
  expect(page.textContent).not.toContain('Back to Dashboard');
  // The whole page, down to the footer: `/#pricing` has its target before any script runs.
  expect(page.querySelector('#pricing')).not.toBeNull();
  expect(page.querySelector('footer')).not.toBeNull();

  // What main.tsx does for a visitor: wait for the landing code, then render the app in one go.
  await preloadLandingPage();
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  flushSync(() => root.render(<App />));
  // The app replaces the build's copy in one commit; the same markup means nothing moves or flashes.
  expect(describe(container)).toBe(describe(page));
  root.unmount();
});
