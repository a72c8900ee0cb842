import { describe, expect, test } from "vitest";
import { addToCart, type CartItem, cartCount, parseStoredCart, setPrices, setQuantity } from "#domain/cart";

const mouse: CartItem = {
  id: "p1",
  name: "Mouse",
  price: 25,
  unit: null,
  quantity: 1,
  vendor: "Acme",
  image_url: "/img/mouse.png",
};
const keyboard: CartItem = {
  id: "p2",
  name: "Keyboard",
  price: 80.5,
  quantity: 3,
  vendor: "KeyCo",
  image_url: "",
};

describe("addToCart", () => {
  test("adds a new item with quantity 1", () => {
    expect(
      addToCart([], { id: "p1", name: "Mouse", price: 25, vendor: "Acme", image_url: "/img/mouse.png" }),
    ).toEqual([mouse]);
  });

  test("defaults a missing vendor to 'Unknown Vendor' and a missing image to ''", () => {
    expect(addToCart([], { id: "p3", name: "Geo API", price: 0.004 })).toEqual([
      {
        id: "p3",
        name: "Geo API",
        price: 0.004,
        unit: null,
        quantity: 1,
        vendor: "Unknown Vendor",
        image_url: "",
      },
    ]);
    expect(addToCart([], { id: "p3", name: "Geo API", price: 0.004, vendor: null, image_url: null })).toEqual(
      [
        {
          id: "p3",
          name: "Geo API",
          price: 0.004,
          unit: null,
          quantity: 1,
          vendor: "Unknown Vendor",
          image_url: "",
        },
      ],
    );
  });

  test("keeps the product's pricing unit, so the cart says what the price buys", () => {
    expect(addToCart([], { id: "p4", name: "Voice API", price: 0.012, unit: "minute" })[0]?.unit).toBe(
      "minute",
    );
  });

  test("an empty vendor name also becomes 'Unknown Vendor'", () => {
    const [item] = addToCart([], { id: "p3", name: "Geo API", price: 0.004, vendor: "" });
    expect(item?.vendor).toBe("Unknown Vendor");
  });

  test("raises the quantity of an item already in the cart by 1", () => {
    const items = [mouse, keyboard];
    const next = addToCart(items, { id: "p2", name: "Keyboard", price: 80.5 });
    expect(next).toEqual([mouse, { ...keyboard, quantity: 4 }]);
  });

  test("keeps the stored details when raising the quantity", () => {
    const next = addToCart([mouse], { id: "p1", name: "Renamed", price: 99, vendor: "Other" });
    expect(next).toEqual([{ ...mouse, quantity: 2 }]);
  });

  test("appends new items after existing ones", () => {
    const next = addToCart([mouse], { id: "p2", name: "Keyboard", price: 80.5, vendor: "KeyCo" });
    expect(next.map((item) => [item.id, item.quantity])).toEqual([
      ["p1", 1],
      ["p2", 1],
    ]);
  });

  test("does not modify the original array", () => {
    const items = [mouse];
    addToCart(items, { id: "p1", name: "Mouse", price: 25 });
    addToCart(items, { id: "p2", name: "Keyboard", price: 80.5 });
    expect(items).toEqual([mouse]);
    expect(mouse.quantity).toBe(1);
  });
});

describe("setQuantity", () => {
  test("sets the quantity of the matching item only", () => {
    expect(setQuantity([mouse, keyboard], "p1", 5)).toEqual([{ ...mouse, quantity: 5 }, keyboard]);
  });

  test("floors a fractional quantity", () => {
    expect(setQuantity([mouse], "p1", 2.7)).toEqual([{ ...mouse, quantity: 2 }]);
  });

  test("removes the item at quantity 0", () => {
    expect(setQuantity([mouse, keyboard], "p1", 0)).toEqual([keyboard]);
  });

  test("removes the item at a negative quantity", () => {
    expect(setQuantity([mouse, keyboard], "p2", -1)).toEqual([mouse]);
  });

  test("leaves the cart alone for an unknown id", () => {
    expect(setQuantity([mouse, keyboard], "nope", 4)).toEqual([mouse, keyboard]);
    expect(setQuantity([mouse, keyboard], "nope", 0)).toEqual([mouse, keyboard]);
  });
});

describe("cartCount", () => {
  test("sums the quantities", () => {
    expect(cartCount([mouse, keyboard])).toBe(4);
    expect(cartCount([{ ...mouse, quantity: 7 }])).toBe(7);
  });

  test("is 0 for an empty cart", () => {
    expect(cartCount([])).toBe(0);
  });
});

describe("parseStoredCart", () => {
  test("returns no items and no error for null", () => {
    const result = parseStoredCart(null);
    expect(result).toEqual({ items: [] });
    expect(result.error).toBeUndefined();
  });

  test("returns the items of valid data without an error", () => {
    const result = parseStoredCart(JSON.stringify([mouse, keyboard]));
    expect(result).toEqual({ items: [mouse, keyboard] });
    expect(result.error).toBeUndefined();
  });

  test("accepts lines stored before pricing units existed, and lines with a unit", () => {
    const { unit: _unit, ...old } = mouse;
    expect(parseStoredCart(JSON.stringify([old])).items).toEqual([old]);
    const monthly = { ...keyboard, unit: "month" };
    expect(parseStoredCart(JSON.stringify([monthly])).items).toEqual([monthly]);
  });

  test("accepts an empty stored array", () => {
    expect(parseStoredCart("[]")).toEqual({ items: [] });
  });

  test("returns an empty cart with an error for corrupt JSON", () => {
    const result = parseStoredCart("{not json");
    expect(result.items).toEqual([]);
    expect(result.error).toMatch(/^SyntaxError: /);
  });

  test.each([
    ["an object instead of an array", { items: [] }],
    ["a string", "cart"],
    ["an item without an id", [{ ...mouse, id: undefined }]],
    ["an item with an empty id", [{ ...mouse, id: "" }]],
    ["a string price", [{ ...mouse, price: "25" }]],
    ["a negative price", [{ ...mouse, price: -1 }]],
    ["a zero quantity", [{ ...mouse, quantity: 0 }]],
    ["a fractional quantity", [{ ...mouse, quantity: 1.5 }]],
    ["a null vendor", [{ ...mouse, vendor: null }]],
    ["a missing image_url", [{ ...mouse, image_url: undefined }]],
    ["an unknown pricing unit", [{ ...mouse, unit: "fortnight" }]],
    ["one bad item among good ones", [mouse, { ...keyboard, quantity: -2 }]],
  ])("returns an empty cart with an error for %s", (_label, data) => {
    const result = parseStoredCart(JSON.stringify(data));
    expect(result.items).toEqual([]);
    expect(typeof result.error).toBe("string");
    expect(result.error).not.toBe("");
  });
});

describe("setQuantity with odd input", () => {
  const item = { id: "a", name: "A", price: 1, quantity: 2, vendor: "V", image_url: "" };
  test("a fraction below 1 or NaN removes the line instead of leaving quantity 0", () => {
    expect(setQuantity([item], "a", 0.5)).toEqual([]);
    expect(setQuantity([item], "a", Number.NaN)).toEqual([]);
    expect(setQuantity([item], "a", 2.7)).toEqual([{ ...item, quantity: 2 }]);
  });
});

describe("setPrices", () => {
  test("sets the named lines' prices and keeps everything else", () => {
    expect(setPrices([mouse, keyboard], [{ id: "p2", price: 0.004 }])).toEqual([
      mouse,
      { ...keyboard, price: 0.004 },
    ]);
  });

  test("ignores products that are not in the cart", () => {
    expect(setPrices([mouse], [{ id: "elsewhere", price: 1 }])).toEqual([mouse]);
  });
});
