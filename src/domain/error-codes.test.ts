import { describe, expect, test } from "vitest";
import {
  clientErrorCodes,
  errorCodes,
  isErrorCode,
  isServerErrorCode,
  serverErrorCodes,
} from "#domain/error-codes";

describe("error codes", () => {
  test("are declared once each, in SNAKE_CASE", () => {
    expect(new Set(errorCodes).size).toBe(errorCodes.length);
    expect(errorCodes.filter((code) => !/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/.test(code))).toEqual([]);
  });

  test("tell a declared code from any other value", () => {
    expect(isErrorCode("PRICE_CHANGED")).toBe(true);
    expect(isErrorCode("NETWORK_ERROR")).toBe(true);
    expect(isErrorCode("PRICE_CHANGE")).toBe(false);
    expect(isErrorCode(undefined)).toBe(false);
    expect(isErrorCode(409)).toBe(false);
  });

  test("the server answers none of the codes the web makes itself", () => {
    expect(clientErrorCodes.filter((code) => (serverErrorCodes as readonly string[]).includes(code))).toEqual(
      [],
    );
    expect(isServerErrorCode("NETWORK_ERROR")).toBe(false);
    expect(isServerErrorCode("CTP_BODY_TOO_LARGE")).toBe(true);
  });
});
