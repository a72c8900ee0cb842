import type { ServerErrorCode } from "#domain/error-codes";

/**
 * Typed errors thrown anywhere on the server; app.ts maps them to `{ code, message }` once. A code is one
 * of `serverErrorCodes` (`src/domain/error-codes.ts`): a new one is declared there, where the web sees it.
 */
export class AppError extends Error {
  readonly statusCode: number;
  readonly code: ServerErrorCode;
  readonly details?: unknown;

  constructor(statusCode: number, code: ServerErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = new.target.name;
    this.statusCode = statusCode;
    this.code = code;
    this.details = details;
  }
}

export class ValidationError extends AppError {
  constructor(message: string, details?: unknown) {
    super(400, "VALIDATION_ERROR", message, details);
  }
}

export class Unauthorized extends AppError {
  constructor(message = "You need to sign in first.", code: ServerErrorCode = "UNAUTHORIZED") {
    super(401, code, message);
  }
}

export class Forbidden extends AppError {
  constructor(message = "You don't have permission to do this.", code: ServerErrorCode = "FORBIDDEN") {
    super(403, code, message);
  }
}

export class NotFound extends AppError {
  constructor(message = "Not found.", code: ServerErrorCode = "NOT_FOUND") {
    super(404, code, message);
  }
}

export class Conflict extends AppError {
  constructor(message: string, code: ServerErrorCode = "CONFLICT") {
    super(409, code, message);
  }
}

export class TooManyRequests extends AppError {
  constructor(retryAfterSeconds: number) {
    super(429, "RATE_LIMITED", `Too many requests. Please wait ${retryAfterSeconds} seconds and try again.`);
  }
}

/** The server is saturated (or gave up on a read): answered at once, with Retry-After, instead of slowly. */
export class ServiceBusy extends AppError {
  constructor(retryAfterSeconds: number) {
    super(503, "SERVICE_BUSY", "The site is very busy right now. Please try again in a few seconds.", {
      retryAfterSeconds,
    });
  }
}
