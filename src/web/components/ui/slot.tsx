import { cloneElement, isValidElement, type ReactNode, type Ref } from "react";

type Props = Record<string, unknown>;

function composeRefs(...refs: unknown[]) {
  return (node: unknown) => {
    for (const ref of refs) {
      if (typeof ref === "function") ref(node);
      else if (ref && typeof ref === "object") (ref as { current: unknown }).current = node;
    }
  };
}

/**
 * Renders its one child element with the props it is given merged in (`asChild`: a Button's look on a
 * Link). The child's props win, except that both event handlers run (the child's first), styles merge and
 * class names join, the slot's first: what Radix's `Slot` does, without its package on every page.
 */
export function Slot({ children, ref, ...slotProps }: Props & { children?: ReactNode; ref?: Ref<unknown> }) {
  if (!isValidElement<Props>(children)) return null;
  const childProps = children.props;
  const merged: Props = { ...slotProps };
  for (const name of Object.keys(childProps)) {
    const slotValue = slotProps[name];
    const childValue = childProps[name];
    if (/^on[A-Z]/.test(name) && typeof slotValue === "function" && typeof childValue === "function") {
      merged[name] = (...args: unknown[]) => {
        const result = childValue(...args);
        slotValue(...args);
        return result;
      };
    } else if (name === "style") merged[name] = { ...(slotValue as object), ...(childValue as object) };
    else if (name === "className") merged[name] = [slotValue, childValue].filter(Boolean).join(" ");
    else if (name !== "ref") merged[name] = childValue;
  }
  const childRef = childProps.ref;
  merged.ref = ref && childRef ? composeRefs(ref, childRef) : (ref ?? childRef);
  return cloneElement(children, merged);
}
