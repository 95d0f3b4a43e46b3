import { Plugin, type EditorState, type PluginKey, type PluginView } from '@tiptap/pm/state';
import type { EditorProps, EditorView } from '@tiptap/pm/view';

type HandlerProp = 'handleKeyDown' | 'handleTextInput' | 'handleClick' | 'handlePaste' | 'decorations';

export interface StandInOptions {
  /** The key the real plugin is made with (its state is read through it). */
  key?: PluginKey;
  /** The real plugin keeps a state: the stand-in holds it (null until the real plugin arrives). */
  stateful?: boolean;
  /** The props of the real plugin to pass on, and its DOM event handlers. */
  props?: readonly HandlerProp[];
  domEvents?: readonly string[];
}

/**
 * A plugin in the editor from the start that acts as another plugin once that one's code arrives. The editor's
 * plugin list never changes: registering a plugin later (editor.registerPlugin) re-creates every plugin view, and
 * the Yjs binding's view then renders the whole document anew. It also keeps the real plugin's place in the list,
 * which decides who sees a key, paste or click first. Until then it does nothing.
 */
export class StandInPlugin {
  readonly plugin: Plugin;
  private target: Plugin | null = null;

  constructor(options: StandInOptions = {}) {
    const { key, stateful = false, props = [], domEvents = [] } = options;
    // While a stateful plugin's state is not made yet, its props are not asked (they would read a null state).
    const ready = (state: EditorState) =>
      this.target !== null && (!stateful || this.plugin.getState(state) !== null);
    const forwarded: Record<string, unknown> = {};
    for (const name of props) {
      forwarded[name] =
        name === 'decorations'
          ? (state: EditorState) =>
              ready(state) ? (this.target!.props.decorations?.call(this.target!, state) ?? null) : null
          : (view: EditorView, ...args: unknown[]) => {
              const handler = this.target?.props[name] as ((...all: unknown[]) => boolean) | undefined;
              return handler && ready(view.state) ? handler.call(this.target, view, ...args) : false;
            };
    }
    if (domEvents.length > 0) {
      forwarded.handleDOMEvents = Object.fromEntries(
        domEvents.map((event) => [
          event,
          (view: EditorView, domEvent: Event) => {
            const handler = this.target?.props.handleDOMEvents?.[event] as
              ((view: EditorView, event: Event) => boolean | void) | undefined;
            return handler && ready(view.state) ? handler.call(this.target, view, domEvent) : false;
          },
        ]),
      );
    }
    this.plugin = new Plugin<unknown>({
      key,
      props: forwarded as EditorProps,
      ...(stateful && {
        state: {
          init: () => null,
          apply: (tr, value, oldState, newState) => {
            const spec = this.target?.spec.state;
            if (!spec) return null;
            // The first transaction after the real plugin arrives (see adopt) only makes its state.
            if (value === null) return spec.init.call(this.target, {}, newState);
            return spec.apply.call(this.target, tr, value, oldState, newState);
          },
        },
      }),
      appendTransaction: (transactions, oldState, newState) =>
        this.target?.spec.appendTransaction?.call(this.target, transactions, oldState, newState),
      view: () => {
        let inner: PluginView | null = null;
        let innerOf: Plugin | null = null;
        const drop = () => {
          inner?.destroy?.();
          inner = null;
          innerOf = null;
        };
        return {
          update: (view, previous) => {
            // Released, or handed another plugin: the view made for the one before goes with it.
            if (inner && innerOf !== this.target) drop();
            if (!inner && this.target?.spec.view) {
              inner = this.target.spec.view.call(this.target, view);
              innerOf = this.target;
            }
            inner?.update?.(view, previous);
          },
          destroy: drop,
        };
      },
    });
  }

  /**
   * From now on each stand-in acts as its plugin (made for this editor and never added to it). One transaction
   * then makes their states and views at once, not on the writer's next keystroke.
   */
  static adopt(view: EditorView, pairs: readonly (readonly [StandInPlugin, Plugin])[]): void {
    for (const [standIn, target] of pairs) standIn.target = target;
    view.dispatch(view.state.tr.setMeta('addToHistory', false));
  }

  /**
   * The stand-ins stop acting as their plugins (a feature switched off, its component gone): one transaction drops
   * their states, decorations and views. They can adopt a plugin again later.
   */
  static release(view: EditorView, standIns: readonly StandInPlugin[]): void {
    for (const standIn of standIns) standIn.target = null;
    if (!view.isDestroyed) view.dispatch(view.state.tr.setMeta('addToHistory', false));
  }
}
