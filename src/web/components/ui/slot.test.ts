import { createElement, isValidElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { expect, test, vi } from "vitest";
import { Slot } from "#web/components/ui/slot";

type Props = Record<string, unknown>;
const slot = (props: Props, child: ReactElement) => {
  const element = Slot({ ...props, children: child });
  if (!isValidElement<Props>(element)) throw new Error("Slot drew no element");
  return element;
};

test("the child is drawn with the slot's props; class names join, the slot's first; the child's other props win", () => {
  const markup = renderToStaticMarkup(
    createElement(
      Slot,
      { className: "inline-flex h-8", "data-slot": "button", title: "slot" },
      createElement("a", { href: "/cart", className: "w-full", title: "child" }, "Cart"),
    ),
  );
  expect(markup).toBe(
    '<a href="/cart" class="inline-flex h-8 w-full" title="child" data-slot="button">Cart</a>',
  );
});

test("both click handlers run, the child's first; styles merge with the child's winning", () => {
  const calls: string[] = [];
  const element = slot(
    { onClick: () => calls.push("slot"), style: { color: "red", margin: 1 } },
    createElement("a", { onClick: () => calls.push("child"), style: { color: "blue" } }),
  );
  (element.props.onClick as () => void)();
  expect(calls).toEqual(["child", "slot"]);
  expect(element.props.style).toEqual({ color: "blue", margin: 1 });
});

test("a handler only one side has is kept; both refs receive the node", () => {
  const onFocus = vi.fn();
  const slotRef = { current: null as unknown };
  const childRef = vi.fn();
  const element = slot({ onFocus, ref: slotRef }, createElement("a", { ref: childRef }));
  expect(element.props.onFocus).toBe(onFocus);
  (element.props.ref as (node: unknown) => void)("node");
  expect(slotRef.current).toBe("node");
  expect(childRef).toHaveBeenCalledWith("node");
});

test("without one element to lend its props to, nothing is drawn", () => {
  expect(Slot({ className: "x", children: "text" })).toBeNull();
});
