import AxeBuilder from '@axe-core/playwright';
import { expect, type BrowserContext, type Page } from '@playwright/test';
import { THEME_STORAGE_KEY } from './fixtures';

export type Theme = 'light' | 'dark';
export const THEMES: readonly Theme[] = ['light', 'dark'];

/** Opens every page of the context in the theme (the same key the app's first-paint script reads). */
export async function useTheme(context: BrowserContext, theme: Theme): Promise<void> {
  await context.addInitScript(
    ([key, value]) => {
      if (!window.sessionStorage.getItem('e2e.theme')) {
        window.sessionStorage.setItem('e2e.theme', '1');
        window.localStorage.setItem(key, value);
      }
    },
    [THEME_STORAGE_KEY, theme] as const,
  );
}

/**
 * Runs axe (WCAG 2.1 A and AA rules, and axe's experimental rules such as label-content-name-mismatch: a control's
 * accessible name must contain its visible text, or speech users cannot say it) on what the page shows now and
 * fails on any serious or critical violation, naming each rule and the elements it found. Moderate and minor
 * findings are left to review.
 */
export async function expectAccessible(
  page: Page,
  screen: string,
  options: { focusTrapped?: boolean } = {},
): Promise<void> {
  // Entry animations end before axe measures contrast (a fading element has a lower contrast mid-way).
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null))));
  let builder = new AxeBuilder({ page }).withTags([
    'wcag2a',
    'wcag2aa',
    'wcag21a',
    'wcag21aa',
    'experimental',
  ]);
  // A Radix Select (it has no non-modal mode) aria-hides the page while its list is open and traps focus in the
  // list, so nothing hidden can take focus then: axe cannot see the trap and would report every hidden button.
  // hidden-content (experimental) only lists hidden elements for a human to review, at minor impact, and walks every
  // element of the page: on the editor it alone outlasts a test's time.
  const skipped = ['hidden-content', ...(options.focusTrapped ? ['aria-hidden-focus'] : [])];
  builder = builder.disableRules(skipped);
  const results = await builder.analyze();
  const blocking = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
    }));
  expect(blocking, `${screen}: serious or critical accessibility violations`).toEqual([]);
}
