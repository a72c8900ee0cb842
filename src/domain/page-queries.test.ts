import { describe, expect, test } from "vitest";
import { pageQueries, queryRecord } from "#domain/page-queries";

const read = (page: keyof typeof pageQueries, query: string) => pageQueries[page](new URLSearchParams(query));

describe("the query a drawn page reads", () => {
  test("the listing keeps its filters as its own links write them, and nothing else", () => {
    expect(
      read("products", "utm_source=x&fbclid=y&gclid=z&page=1&sort=default&pageSize=48&facets=true"),
    ).toBe("");
    expect(read("products", "sort=price-low&search=%20cloud%20&vendor=B&vendor=A&unknown=1")).toBe(
      "?search=cloud&vendor=B&vendor=A&sort=price-low",
    );
  });

  test("an invalid listing query keeps only the schema's keys, in name order", () => {
    expect(read("products", "utm_source=x&page=0&category=Bad!")).toBe("?category=Bad%21&page=0");
  });

  test("pages that read nothing while they draw drop the whole query; others keep their keys", () => {
    expect(read("product", "ref=CODE1&utm_source=x")).toBe("");
    expect(read("home", "newsletter=confirmed")).toBe("");
    expect(read("compare", "utm_source=x&ids=a,b")).toBe("?ids=a%2Cb");
    expect(read("vendor", "page=2&fbclid=x")).toBe("?page=2");
  });

  test("repeated keys are read as lists", () => {
    expect(queryRecord(new URLSearchParams("vendor=A&vendor=B&search=x"))).toEqual({
      vendor: ["A", "B"],
      search: "x",
    });
  });
});
