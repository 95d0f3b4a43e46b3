import {
  lazy,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type ComponentType,
  type ReactNode,
} from 'react';

/** A component whose code is fetched when first needed rather than with the page. */
export interface OnDemand<P> {
  /** Fetches the code (once; again after a failed attempt) and resolves to the component. */
  load(): Promise<ComponentType<P>>;
  /** The component, if its code is already here. */
  loaded(): ComponentType<P> | null;
}

export function onDemand<P>(fetchComponent: () => Promise<ComponentType<P>>): OnDemand<P> {
  let component: ComponentType<P> | null = null;
  let pending: Promise<ComponentType<P>> | null = null;
  return {
    load() {
      pending ??= fetchComponent().then(
        (fetched) => (component = fetched),
        (error: unknown) => {
          pending = null;
          throw error;
        },
      );
      return pending;
    },
    loaded: () => component,
  };
}

/**
 * The component as a page part: drawn at once when its code is already here (brought early with `load()`, so a
 * first render can be complete), else fetched through React.lazy under the nearest Suspense boundary.
 */
export function lazyOnDemand<P extends object>(part: OnDemand<P>): ComponentType<P> {
  const Lazy = lazy(async () => ({ default: await part.load() }));
  return function OnDemandPart(props: P) {
    const Loaded = part.loaded();
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />;
  };
}

/**
 * A page whose code is fetched when its route is first shown: `Fallback` until the code is here, then the page.
 *
 * Not React.lazy under a Suspense boundary: React holds back content a boundary was waiting for until 300 ms
 * after that boundary's fallback appeared, unless something else renders in between, so a page whose code came
 * 80 ms after its spinner waited up to 220 ms more (bench:editor, opening). Here the page arrives as an ordinary
 * state update and is drawn as soon as its code is in. A failed fetch is thrown while rendering, as React.lazy
 * would.
 */
export function pageOnDemand<P extends object>(part: OnDemand<P>, Fallback: ComponentType): ComponentType<P> {
  return function OnDemandPage(props: P) {
    const [Page, setPage] = useState<ComponentType<P> | null>(() => {
      const loaded = part.loaded();
      // Fetched as the route renders, as React.lazy does, not a commit later (the effect below reports it).
      if (!loaded) part.load().catch(() => undefined);
      return loaded;
    });
    useEffect(() => {
      if (Page) return;
      let current = true;
      part.load().then(
        (loaded) => current && setPage(() => loaded),
        (error: unknown) =>
          current &&
          setPage(() => {
            throw error;
          }),
      );
      return () => {
        current = false;
      };
    }, [Page]);
    return Page ? <Page {...props} /> : <Fallback />;
  };
}

/**
 * A menu, popover or select whose library is not part of the page's first load. Until its code is here (fetched
 * right after mount, or as soon as the writer points at or focuses the stand-in), `standIn` renders a look-alike of
 * its trigger, so nothing moves when the real control takes its place. A click on the stand-in opens the control
 * as soon as it arrives (`openOnArrival`), and keyboard focus moves over to the real trigger.
 */
export function OnDemandControl<P>({
  control,
  standIn,
  children,
}: {
  control: OnDemand<P>;
  standIn: ReactNode;
  children: (Control: ComponentType<P>, openOnArrival: boolean) => ReactNode;
}) {
  const [Control, setControl] = useState<ComponentType<P> | null>(() => control.loaded());
  const [openOnArrival, setOpenOnArrival] = useState(false);
  const container = useRef<HTMLSpanElement>(null);
  const refocus = useRef(false);

  const fetchControl = () => {
    control.load().then(
      (fetched) => {
        refocus.current = container.current?.contains(document.activeElement) ?? false;
        setControl(() => fetched);
      },
      // Offline or a failed request: the stand-in stays, and the next reach tries again.
      () => undefined,
    );
  };

  useEffect(() => {
    if (!Control) fetchControl();
    // Once on mount: later attempts come from the stand-in's handlers.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useLayoutEffect(() => {
    if (!Control || !refocus.current) return;
    refocus.current = false;
    container.current?.querySelector<HTMLElement>('button, [tabindex]')?.focus();
  }, [Control]);

  return (
    <span
      ref={container}
      className="contents"
      {...(!Control && {
        onPointerOver: fetchControl,
        onFocus: fetchControl,
        onClick: () => {
          setOpenOnArrival(true);
          fetchControl();
        },
      })}
    >
      {Control ? children(Control, openOnArrival) : standIn}
    </span>
  );
}
