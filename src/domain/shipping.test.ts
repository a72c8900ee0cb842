import { describe, expect, test } from "vitest";
import { DAY_MS } from "#domain/dates";
import {
  type ItemShipping,
  isPhysicalCategory,
  itemRefundableUntil,
  orderProgressLabel,
  shippingAddressSchema,
} from "#domain/shipping";

const shipping = (state: ItemShipping["state"]): ItemShipping => ({
  state,
  carrier: state === "awaiting_shipment" ? null : "DHL",
  trackingNumber: state === "awaiting_shipment" ? null : "JD01",
  shippedAt: null,
  deliveredAt: null,
  deliveredBy: null,
});

describe("shipping rules", () => {
  test("hardware is the physical category", () => {
    expect(isPhysicalCategory("hardware")).toBe(true);
    expect(isPhysicalCategory("software")).toBe(false);
    expect(isPhysicalCategory(null)).toBe(false);
  });

  test("an address reads a country name as its code and needs a postal code and phone", () => {
    const parsed = shippingAddressSchema.safeParse({
      fullName: "Bianca Buyer",
      line1: "12 Harbour Street",
      city: "Dubai",
      postalCode: "00000",
      country: "United Arab Emirates",
      phone: "+971 4 555 0100",
    });
    expect(parsed.success && parsed.data).toMatchObject({ country: "AE", line2: "" });
    const bad = shippingAddressSchema.safeParse({ fullName: "B", line1: "", city: "", country: "" });
    expect(bad.success).toBe(false);
  });

  test("the refund window of a physical item counts from delivery and is open before it", () => {
    const ordered = new Date("2026-01-01T00:00:00Z");
    const delivered = new Date("2026-01-20T00:00:00Z");
    expect(itemRefundableUntil({ shippingState: null, deliveredAt: null }, ordered, 14)).toEqual(
      new Date(ordered.getTime() + 14 * DAY_MS),
    );
    expect(itemRefundableUntil({ shippingState: "shipped", deliveredAt: null }, ordered, 14)).toBeNull();
    expect(itemRefundableUntil({ shippingState: "delivered", deliveredAt: delivered }, ordered, 14)).toEqual(
      new Date(delivered.getTime() + 14 * DAY_MS),
    );
  });

  test("a confirmed order reads Shipped, then Delivered; digital orders and refunds keep their labels", () => {
    const digital = [{ shipping: null, refundStatus: "none" }];
    expect(orderProgressLabel("Confirmed", digital)).toBe("Confirmed");
    const waiting = [...digital, { shipping: shipping("awaiting_shipment"), refundStatus: "none" }];
    expect(orderProgressLabel("Confirmed", waiting)).toBe("Confirmed");
    const partly = [
      { shipping: shipping("shipped"), refundStatus: "none" },
      { shipping: shipping("awaiting_shipment"), refundStatus: "none" },
    ];
    expect(orderProgressLabel("Confirmed", partly)).toBe("Shipped");
    const done = [
      { shipping: shipping("delivered"), refundStatus: "none" },
      { shipping: shipping("awaiting_shipment"), refundStatus: "refunded" },
    ];
    expect(orderProgressLabel("Confirmed", done)).toBe("Delivered");
    expect(orderProgressLabel("Partially refunded", done)).toBe("Partially refunded");
  });
});
