import { useLayoutEffect, useRef, useState } from 'react';
import { TYPING_MS_PER_CHAR, TYPING_PAUSE_MS } from '@shared/constants';
import { useDemoMotion } from './motion';

/**
 * Shows `text`, holds it for TYPING_PAUSE_MS, then types it again one character every TYPING_MS_PER_CHAR,
 * in a loop. Screen readers get the whole sentence once; the full text is laid out invisibly underneath so
 * the animation never shifts the page. Without motion the sentence is simply shown.
 *
 * Each step writes the text node directly instead of re-rendering through React, and the box is
 * layout/paint contained: ten updates a second must stay cheap on a slow phone while the page loads.
 */
export function TypingText({ text, className }: { text: string; className?: string }) {
  const { animate } = useDemoMotion();
  const typedRef = useRef<HTMLSpanElement>(null);
  // The sentence starts complete (readable at first paint, a stable largest paint), then, after the
  // pause and once the page has loaded, is typed again and again.
  const position = useRef(text.length);
  // The sentence is in the markup too (the page's HTML written at build time shows it before any script runs);
  // after that the effect below owns the text node, and React never updates it again.
  const [initialText] = useState(text);

  useLayoutEffect(() => {
    const node = typedRef.current;
    if (!node) return;
    if (!animate) {
      position.current = text.length;
      node.textContent = text;
      return;
    }
    node.textContent = text.slice(0, position.current);
    let timer = 0;
    const schedule = () => {
      const done = position.current >= text.length;
      timer = window.setTimeout(
        () => {
          position.current = done ? 0 : position.current + 1;
          node.textContent = text.slice(0, position.current);
          schedule();
        },
        done ? TYPING_PAUSE_MS : TYPING_MS_PER_CHAR,
      );
    };
    const start = () => schedule();
    if (document.readyState === 'complete') start();
    else window.addEventListener('load', start, { once: true });
    return () => {
      window.removeEventListener('load', start);
      window.clearTimeout(timer);
    };
  }, [animate, text]);

  return (
    <span className={className}>
      <span className="sr-only">{text}</span>
      <span aria-hidden="true" className="grid [contain:layout_paint]">
        <span className="invisible col-start-1 row-start-1">{text}</span>
        <span className="col-start-1 row-start-1" data-testid="typing-text">
          <span ref={typedRef}>{initialText}</span>
          {animate && (
            <span className="ml-0.5 inline-block h-[0.9em] w-[3px] translate-y-[0.1em] rounded-full bg-current align-baseline" />
          )}
        </span>
      </span>
    </span>
  );
}
