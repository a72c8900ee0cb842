import { describe, expect, test } from "vitest";
import { receivedOrderStatus, receivedShippingLabel } from "#domain/earnings";
import type { ItemShipping } from "#domain/shipping";

const shipping = (state: ItemShipping["state"]): ItemShipping => ({
  state,
  carrier: null,
  trackingNumber: null,
  shippedAt: null,
  deliveredAt: null,
  deliveredBy: null,
});

describe("an order a seller received, as the seller reads it", () => {
  test("its status says how much of the seller's part was refunded", () => {
    expect(receivedOrderStatus([{ refunded: false }, { refunded: false }])).toBe("Paid");
    expect(receivedOrderStatus([{ refunded: true }, { refunded: false }])).toBe("Partly refunded");
    expect(receivedOrderStatus([{ refunded: true }])).toBe("Refunded");
  });

  test("its shipping says where the seller's physical items are; digital ones ship nothing", () => {
    expect(receivedShippingLabel([{ shipping: null, refunded: false }])).toBe("No shipping");
    expect(receivedShippingLabel([{ shipping: shipping("awaiting_shipment"), refunded: false }])).toBe(
      "To ship",
    );
    expect(
      receivedShippingLabel([
        { shipping: shipping("shipped"), refunded: false },
        { shipping: shipping("awaiting_shipment"), refunded: false },
      ]),
    ).toBe("Shipped");
    expect(receivedShippingLabel([{ shipping: shipping("delivered"), refunded: false }])).toBe("Delivered");
    // A refunded item waiting for shipment is nothing to send.
    expect(receivedShippingLabel([{ shipping: shipping("awaiting_shipment"), refunded: true }])).toBe(
      "No shipping",
    );
  });
});
