import { describe, expect, test } from "vitest";
import {
  IMAGE_SIZE_MESSAGE,
  IMAGE_TYPE_MESSAGE,
  imageFileProblem,
  MAX_IMAGE_BYTES,
  manageProductsQuery,
  productFormSchema,
  productInputSchema,
} from "#domain/product-admin";

const minimal = { name: "Ledger Pro", category: "software", price: 49 };

/** The messages of a failed parse, keyed by field path. */
function problems(input: unknown) {
  const result = productInputSchema.safeParse(input);
  if (result.success) throw new Error("expected the input to be refused");
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join("."), i.message]));
}

describe("product input", () => {
  test("trims, stores empty optional fields as null and applies the defaults", () => {
    const product = productInputSchema.parse({
      ...minimal,
      name: "  Ledger Pro  ",
      vendor: "   ",
      description: "",
      originalPrice: "",
      discountLabel: "",
      discountPercentage: "",
      pricingUnit: "",
    });
    expect(product).toEqual({
      name: "Ledger Pro",
      vendor: null,
      description: null,
      category: "software",
      price: 49,
      originalPrice: null,
      pricingUnit: null,
      discountLabel: null,
      discountPercentage: null,
      isActive: true,
      isResellable: false,
      commissionPercent: 10,
      features: [],
      specifications: [],
      images: [],
      imageUrl: null,
      hasDiscount: false,
    });
  });

  test("the pricing unit: one of the list, or not set", () => {
    expect(productInputSchema.parse({ ...minimal, pricingUnit: "user_month" }).pricingUnit).toBe(
      "user_month",
    );
    expect(productInputSchema.parse(minimal).pricingUnit).toBeNull();
    expect(productInputSchema.parse({ ...minimal, pricingUnit: null }).pricingUnit).toBeNull();
    expect(problems({ ...minimal, pricingUnit: "fortnight" })).toEqual({
      pricingUnit: "Please choose a pricing unit from the list",
    });
  });

  test("a missing or blank name, category or price is refused with the field's message", () => {
    expect(problems({ name: "   ", category: "", price: "" })).toEqual({
      name: "Product name is required",
      category: "Please select a category",
      price: "Price is required",
    });
    expect(problems({ category: "software" })).toMatchObject({
      name: "Product name is required",
      price: "Price is required",
    });
  });

  test("price: not negative, at most four decimals, numbers from form text accepted", () => {
    expect(problems({ ...minimal, price: -1 })).toEqual({ price: "Price must be 0 or more" });
    expect(problems({ ...minimal, price: 1.23456 })).toEqual({ price: "Price can have at most 4 decimals" });
    expect(problems({ ...minimal, price: "abc" })).toEqual({ price: "Price must be a number" });
    expect(problems({ ...minimal, price: 1_000_000.0001 })).toEqual({
      price: "Price must be at most $1,000,000",
    });
    expect(problems({ ...minimal, originalPrice: 2_000_000 })).toEqual({
      originalPrice: "Original price must be at most $1,000,000",
    });
    expect(productInputSchema.parse({ ...minimal, price: 1_000_000 }).price).toBe(1_000_000);
    expect(productInputSchema.parse({ ...minimal, price: "0.004" }).price).toBe(0.004);
    expect(productInputSchema.parse({ ...minimal, price: 0 }).price).toBe(0);
    expect(productInputSchema.parse({ ...minimal, price: 19.99 }).price).toBe(19.99);
    expect(problems({ ...minimal, originalPrice: -5 })).toEqual({
      originalPrice: "Original price must be 0 or more",
    });
  });

  test("no typed-in rating (it comes from reviews); discount percentage a whole number to 100", () => {
    expect(productInputSchema.parse({ ...minimal, rating: 4.5 })).not.toHaveProperty("rating");
    expect(problems({ ...minimal, discountPercentage: 101 })).toEqual({
      discountPercentage: "Discount percentage must be between 0 and 100",
    });
    expect(problems({ ...minimal, discountPercentage: 12.5 })).toEqual({
      discountPercentage: "Discount percentage must be a whole number",
    });
  });

  test("hasDiscount follows the discount label", () => {
    expect(productInputSchema.parse({ ...minimal, discountLabel: " 20% OFF " })).toMatchObject({
      discountLabel: "20% OFF",
      hasDiscount: true,
    });
    expect(productInputSchema.parse({ ...minimal, hasDiscount: true }).hasDiscount).toBe(false);
  });

  test("images must be Stackbay uploads: `..`, other schemes, queries and odd paths are refused", () => {
    for (const bad of [
      "//evil.example/x.png",
      "https://evil.example/../x.png",
      "https://evil.example/x.png?track=1",
      "https://user@evil.example/x.png",
      "ftp://evil.example/x.png",
      "/uploads/../secret",
      "/uploads/products/../../etc/passwd",
      "/uploads/",
      "/static/x.png",
      "javascript:alert(1)",
      "/uploads/products/a b.webp",
    ]) {
      expect(problems({ ...minimal, images: [bad] }), bad).toEqual({
        "images.0": "Images must be uploaded to Stackbay",
      });
    }
    // A bucket's absolute URLs pass here; the server refuses any that is not its storage's own.
    const bucket = [
      "https://cdn.stackbay.example/products/a.webp",
      "http://127.0.0.1:9000/b/products/a.webp",
    ];
    expect(productInputSchema.safeParse({ ...minimal, images: bucket }).success).toBe(true);
    expect(problems({ ...minimal, images: ["/uploads/a.webp", "/uploads/a.webp"] })).toEqual({
      images: "Each image can be added only once",
    });
    const nine = Array.from({ length: 9 }, (_, i) => `/uploads/products/${i}.webp`);
    expect(problems({ ...minimal, images: nine })).toEqual({ images: "A product can have at most 8 images" });
  });

  test("the main image is one of the images, the first one by default, null when there are none", () => {
    const images = ["/uploads/products/a.webp", "/uploads/products/b.webp"];
    expect(productInputSchema.parse({ ...minimal, images }).imageUrl).toBe(images[0]);
    expect(productInputSchema.parse({ ...minimal, images, imageUrl: images[1] }).imageUrl).toBe(images[1]);
    expect(problems({ ...minimal, images, imageUrl: "/uploads/products/c.webp" })).toEqual({
      imageUrl: "The main image must be one of the product's images",
    });
    expect(problems({ ...minimal, imageUrl: "/uploads/products/c.webp" })).toEqual({
      imageUrl: "The main image must be one of the product's images",
    });
  });

  test("features and specifications: trimmed, non-empty, limited in number and length", () => {
    const product = productInputSchema.parse({
      ...minimal,
      features: [" Offline mode "],
      specifications: [{ key: " Platform ", value: " macOS " }],
    });
    expect(product.features).toEqual(["Offline mode"]);
    expect(product.specifications).toEqual([{ key: "Platform", value: "macOS" }]);
    expect(problems({ ...minimal, features: [""] })).toEqual({ "features.0": "Feature can't be empty" });
    expect(problems({ ...minimal, features: ["x".repeat(201)] })).toEqual({
      "features.0": "Feature must be at most 200 characters",
    });
    expect(problems({ ...minimal, features: Array(31).fill("x") })).toEqual({
      features: "A product can have at most 30 features",
    });
    expect(problems({ ...minimal, specifications: [{ key: "Platform", value: " " }] })).toEqual({
      "specifications.0.value": "Specification value is required",
    });
  });

  test("owner, ids and dates in the input are dropped", () => {
    const product = productInputSchema.parse({
      ...minimal,
      sellerId: "someone",
      isAdmin: true,
      id: "x",
      createdAt: "2020-01-01",
    });
    for (const key of ["sellerId", "isAdmin", "id", "createdAt"]) expect(product).not.toHaveProperty(key);
  });

  test("the form schema shares the field rules and holds features as rows", () => {
    const values = productFormSchema.parse({
      ...minimal,
      price: "12.50",
      features: [{ value: " Fast " }],
      specifications: [],
    });
    expect(values).toMatchObject({ price: 12.5, features: [{ value: "Fast" }] });
    expect(
      productFormSchema.safeParse({ ...minimal, features: [{ value: "" }], specifications: [] }).success,
    ).toBe(false);
  });
});

describe("picked image files", () => {
  test("must be images under 5 MB", () => {
    expect(imageFileProblem({ type: "image/png", size: 1000 })).toBeNull();
    expect(imageFileProblem({ type: "application/pdf", size: 1000 })).toBe(IMAGE_TYPE_MESSAGE);
    expect(imageFileProblem({ type: "image/jpeg", size: MAX_IMAGE_BYTES })).toBe(IMAGE_SIZE_MESSAGE);
  });
});

describe("manage list query", () => {
  test("defaults and the mine flag", () => {
    expect(manageProductsQuery.parse({})).toEqual({ search: "", status: "all", page: 1, mine: false });
    expect(manageProductsQuery.parse({ search: " x ", status: "inactive", page: "2", mine: "true" })).toEqual(
      {
        search: "x",
        status: "inactive",
        page: 2,
        mine: true,
      },
    );
    expect(manageProductsQuery.safeParse({ status: "gone" }).success).toBe(false);
  });
});
