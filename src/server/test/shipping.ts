import type { ShippingAddressInput } from "#domain/shipping";

/** A valid shipping address for test checkouts; carts with hardware need one, others ignore it. */
export const testShippingAddress: ShippingAddressInput = {
  fullName: "Bianca Buyer",
  line1: "12 Harbour Street",
  line2: "",
  city: "Dubai",
  postalCode: "00000",
  country: "AE",
  phone: "+971 4 555 0100",
};
