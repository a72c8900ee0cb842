import { describe, expect, test } from "vitest";
import { addToCart, type CartItem, type CartPlan, cartCount, parseStoredCart } from "#domain/cart";
import { addOnPlan, dropTrials, priceNow, setPrices, setQuantity } from "#domain/cart-lines";

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

const perSeat: CartPlan = {
  id: "plan-seat",
  name: "Per seat",
  interval: "month",
  perSeat: true,
  minSeats: 3,
  maxSeats: 10,
  trialDays: 14,
};
const yearly: CartPlan = { ...perSeat, id: "plan-year", name: "Yearly", interval: "year", minSeats: 1 };
const crm = { id: "crm", name: "CRM", price: 49, unit: "user_month" as const, vendor: "Corvane" };

describe("lines on a plan (addOnPlan)", () => {
  test("a per-seat plan's line starts at its least seats, with the plan and whether it is a trial", () => {
    expect(addOnPlan([mouse], { ...crm, plan: perSeat, trial: true })).toEqual([
      mouse,
      { ...crm, quantity: 3, image_url: "", plan: perSeat, trial: true },
    ]);
    expect(addOnPlan([], { ...crm, plan: yearly })[0]).toMatchObject({ quantity: 1, trial: false });
  });

  test("a trial is taken only on a plan that offers one", () => {
    const noTrial = { ...yearly, trialDays: 0 };
    expect(addOnPlan([], { ...crm, plan: noTrial, trial: true })[0]?.trial).toBe(false);
  });

  test("adding the same plan again adds a seat, up to the plan's most", () => {
    const once = addOnPlan([], { ...crm, plan: perSeat });
    expect(addOnPlan(once, { ...crm, plan: perSeat })[0]?.quantity).toBe(4);
    const full = setQuantity(once, "crm", 10);
    expect(addOnPlan(full, { ...crm, plan: perSeat })[0]?.quantity).toBe(10);
  });

  test("adding it with another plan replaces the line's plan and price, its seats kept within the new range", () => {
    const seats = setQuantity(addOnPlan([], { ...crm, plan: perSeat, trial: true }), "crm", 5);
    const next = addOnPlan(seats, { ...crm, price: 490, unit: "user_year", plan: yearly });
    expect(next).toEqual([
      { ...crm, price: 490, unit: "user_year", quantity: 5, image_url: "", plan: yearly, trial: false },
    ]);
    const narrow = { ...yearly, id: "plan-small", maxSeats: 2 };
    expect(addOnPlan(next, { ...crm, plan: narrow })[0]?.quantity).toBe(2);
  });

  test("the same plan with or without its trial is another choice: the line takes it", () => {
    const trial = addOnPlan([], { ...crm, plan: perSeat, trial: true });
    expect(addOnPlan(trial, { ...crm, plan: perSeat })[0]).toMatchObject({ quantity: 3, trial: false });
  });

  test("a card's line (no plan) takes the plan chosen on the product page, within its seats", () => {
    const line = addToCart([], crm);
    expect(addOnPlan(line, { ...crm, plan: perSeat })[0]).toMatchObject({ plan: perSeat, quantity: 3 });
  });

  test("added again from a card (addToCart), a line on a plan keeps its plan and trial", () => {
    const line = addOnPlan([], { ...crm, plan: yearly, trial: true });
    expect(addToCart(line, crm)[0]).toMatchObject({ plan: yearly, trial: true, quantity: 2 });
  });

  test("setQuantity keeps a plan's line within its seats; zero still removes it", () => {
    const line = addOnPlan([], { ...crm, plan: perSeat });
    expect(setQuantity(line, "crm", 2)[0]?.quantity).toBe(3);
    expect(setQuantity(line, "crm", 50)[0]?.quantity).toBe(10);
    expect(setQuantity(line, "crm", 0)).toEqual([]);
  });

  test("does not modify the cart it was given", () => {
    const items = addOnPlan([], { ...crm, plan: perSeat });
    const copy = structuredClone(items);
    addOnPlan(items, { ...crm, plan: yearly });
    addOnPlan(items, { ...crm, plan: perSeat });
    expect(items).toEqual(copy);
  });
});

describe("what a line is charged now", () => {
  test("a trial line nothing, any other its price", () => {
    expect(priceNow({ price: 49, trial: true })).toBe(0);
    expect(priceNow({ price: 49, trial: false })).toBe(49);
    expect(priceNow({ price: 0.004 })).toBe(0.004);
  });

  test("dropTrials makes the named trial lines bought outright and leaves the rest", () => {
    const trial = addOnPlan([], { ...crm, plan: perSeat, trial: true });
    const other = addOnPlan(trial, { ...crm, id: "desk", plan: perSeat, trial: true });
    const after = dropTrials([...other, mouse], ["crm", "p1"]);
    expect(after.map((item) => item.trial)).toEqual([false, true, undefined]);
    expect(after[2]).toBe(mouse);
  });
});

describe("parseStoredCart with plans", () => {
  const line = { ...keyboard, quantity: 3, unit: "user_month", plan: perSeat, trial: true };

  test("accepts lines with a plan and a trial, and lines stored before plans", () => {
    expect(parseStoredCart(JSON.stringify([line, mouse, keyboard])).items).toEqual([line, mouse, keyboard]);
    // Seats outside the plan's range are the server's to refuse (SEATS_OUT_OF_RANGE), not a corrupt cart.
    expect(parseStoredCart(JSON.stringify([{ ...line, quantity: 12 }])).items).toHaveLength(1);
    expect(parseStoredCart(JSON.stringify([{ ...line, trial: false }])).items).toHaveLength(1);
    expect(parseStoredCart(JSON.stringify([{ ...mouse, trial: false }])).items).toHaveLength(1);
  });

  test.each([
    ["a plan that is not an object", { ...line, plan: "plan-seat" }],
    ["a null plan", { ...line, plan: null }],
    ["a plan without an id", { ...line, plan: { ...perSeat, id: "" } }],
    ["a plan with an unknown interval", { ...line, plan: { ...perSeat, interval: "week" } }],
    ["a plan whose seats are a string", { ...line, plan: { ...perSeat, minSeats: "3" } }],
    ["a plan with no seats", { ...line, plan: { ...perSeat, minSeats: 0 } }],
    ["a plan whose most seats are below its least", { ...line, plan: { ...perSeat, maxSeats: 2 } }],
    ["a plan with a fractional trial", { ...line, plan: { ...perSeat, trialDays: 1.5 } }],
    ["a plan without perSeat", { ...line, plan: { ...perSeat, perSeat: undefined } }],
    ["a trial that is not a boolean", { ...line, trial: "yes" }],
    ["a trial without a plan", { ...mouse, trial: true }],
    ["a trial on a plan that offers none", { ...line, plan: { ...perSeat, trialDays: 0 } }],
  ])("rejects %s", (_label, item) => {
    const result = parseStoredCart(JSON.stringify([mouse, item]));
    expect(result.items).toEqual([]);
    expect(result.error).toBe("stored cart item 1 is malformed");
  });
});
