import { describe, expect, expectTypeOf, test } from "vitest";
import type { ServerErrorCode } from "#domain/error-codes";
import { AppError, Conflict, Forbidden, NotFound, Unauthorized } from "#server/errors";

describe("typed errors", () => {
  test("take only a declared code", () => {
    expectTypeOf<ConstructorParameters<typeof AppError>[1]>().toEqualTypeOf<ServerErrorCode>();
    expectTypeOf<AppError["code"]>().toEqualTypeOf<ServerErrorCode>();
    // A bare string that `src/domain/error-codes.ts` does not declare fails `npm run typecheck`.
    // @ts-expect-error: not a declared code
    new Conflict("Taken.", "SOMETHING_NEW");
    // @ts-expect-error: not a declared code
    new AppError(400, "SOMETHING_NEW", "No.");
    // @ts-expect-error: not a declared code
    new NotFound("Gone.", "SOMETHING_NEW");
    // @ts-expect-error: not a declared code
    new Forbidden("No.", "SOMETHING_NEW");
    // @ts-expect-error: not a declared code
    new Unauthorized("No.", "SOMETHING_NEW");
    expect(new Conflict("Taken.", "CATEGORY_EXISTS").code).toBe("CATEGORY_EXISTS");
  });
});
