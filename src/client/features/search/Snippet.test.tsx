import { render } from '@testing-library/react';
import { expect, it } from 'vitest';
import { Snippet } from './Snippet';

it('renders the matches as <mark> and everything else as text, never as HTML', () => {
  const { container } = render(
    <Snippet
      html={
        'a &lt;img src=x onerror=alert(1)&gt; &amp; <mark>harbour</mark> &quot;lights&quot; <mark>x</mark>'
      }
    />,
  );
  expect(container.querySelector('img')).toBeNull();
  expect([...container.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['harbour', 'x']);
  expect(container.textContent).toBe('a <img src=x onerror=alert(1)> & harbour "lights" x');
});

it('a <mark> spelled inside the text stays text', () => {
  // The server escapes a writer's own "<mark>", so it arrives as &lt;mark&gt; and is shown as typed.
  const { container } = render(<Snippet html={'&lt;mark&gt;typed&lt;/mark&gt;'} />);
  expect(container.querySelectorAll('mark')).toHaveLength(0);
  expect(container.textContent).toBe('<mark>typed</mark>');
});
