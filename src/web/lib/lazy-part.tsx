import { type ComponentType, use } from "react";

export type LazyPart<P extends object> = {
  /** Starts loading the code (once); resolves when it is there. */
  preload: () => Promise<ComponentType<P>>;
  loaded: () => ComponentType<P> | undefined;
};

/**
 * A component whose code loads on first use, or ahead of it with `preload`. Unlike `React.lazy`, once the
 * code is there it draws in the same render, without suspending: preloaded with the screen it belongs
 * to, it shows with that screen, not a moment after.
 */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>): LazyPart<P> {
  let loading: Promise<ComponentType<P>> | undefined;
  let loaded: ComponentType<P> | undefined;
  return {
    preload: () =>
      (loading ??= load().then(
        (component) => {
          loaded = component;
          return component;
        },
        (error: unknown) => {
          // Asked again next time (a network that came back), not failed for good.
          loading = undefined;
          throw error;
        },
      )),
    loaded: () => loaded,
  };
}

/** Draws a `lazyPart`, suspending (to the nearest Suspense boundary) while its code loads. */
export function Lazy<P extends object>({ part, props }: { part: LazyPart<P>; props: P }) {
  const Component = part.loaded() ?? use(part.preload());
  return <Component {...props} />;
}
