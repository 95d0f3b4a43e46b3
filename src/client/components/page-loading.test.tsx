import { renderToStaticMarkup } from 'react-dom/server';
import { expect, it } from 'vitest';
import { PageFallback } from '@client/routes';
import { PAGE_LOADING_HTML } from './page-loading';

it("the editor page's HTML holds the same spinner the app draws, so its first render changes nothing on screen", () => {
  expect(renderToStaticMarkup(<PageFallback />)).toBe(PAGE_LOADING_HTML);
});
