/**
 * Every `code` an error answer of the API can carry (`{ code, message, details? }`), declared once. The
 * server's typed errors (`src/server/errors.ts`) accept only these, so a new code is added here first;
 * the web's `ApiError` carries one of them, so a screen branches on a code the compiler knows, never on
 * the message's words.
 */
export const serverErrorCodes = [
  // Any route: the request, the guard, the rate limit, the server.
  "VALIDATION_ERROR",
  "INVALID_INPUT",
  "UNAUTHORIZED",
  "FORBIDDEN",
  "FORBIDDEN_ORIGIN",
  "NOT_FOUND",
  "CONFLICT",
  "RATE_LIMITED",
  "SERVICE_BUSY",
  "INTERNAL_ERROR",
  "NOT_RENDERED_ON_SERVER",
  // Fastify's and its multipart plugin's own refusals, named without their `FST_ERR_` prefix.
  "BAD_REQUEST",
  "BAD_URL",
  "INVALID_URL",
  "MAX_PARAM_LENGTH",
  "CTP_BODY_TOO_LARGE",
  "CTP_INVALID_MEDIA_TYPE",
  "CTP_INVALID_CONTENT_LENGTH",
  "CTP_EMPTY_JSON_BODY",
  "CTP_INVALID_JSON_BODY",
  "INVALID_MULTIPART_CONTENT_TYPE",
  "FILES_LIMIT",
  "PARTS_LIMIT",
  "FIELDS_LIMIT",
  // Accounts: sign-up, sign-in, codes, two-factor, passwords.
  "INVALID_CREDENTIALS",
  "EMAIL_NOT_VERIFIED",
  "ACCOUNT_DISABLED",
  "INVALID_CODE",
  "CODE_EXPIRED",
  "CODE_COOLDOWN",
  "TOO_MANY_ATTEMPTS",
  "TOO_MANY_SIGN_IN_ATTEMPTS",
  "MAIL_FAILED",
  "INVALID_PASSWORD",
  "INVALID_TWO_FACTOR_CODE",
  "TWO_FACTOR_EXPIRED",
  "TWO_FACTOR_ALREADY_ENABLED",
  "TWO_FACTOR_NOT_ENABLED",
  "ACCOUNT_DELETION_BLOCKED",
  // Users and roles.
  "USER_NOT_FOUND",
  "CANNOT_DISABLE_SELF",
  "LAST_SUPER_ADMIN",
  "SUPER_ADMIN_REQUIRED",
  // Catalogue, categories, pages, search, uploads.
  "PRODUCT_NOT_FOUND",
  "CATEGORY_NOT_FOUND",
  "CATEGORY_EXISTS",
  "CATEGORY_IN_USE",
  "PAGE_NOT_FOUND",
  "PAGE_SLUG_TAKEN",
  "FAQ_QUESTION_NOT_FOUND",
  "SYNONYM_NOT_FOUND",
  "SYNONYM_EXISTS",
  "NOTIFICATION_NOT_FOUND",
  "NO_FILE",
  "NOT_AN_IMAGE",
  "IMAGE_TOO_LARGE",
  "IMAGE_DIMENSIONS_TOO_LARGE",
  "IMAGE_NOT_YOURS",
  "INVALID_METRICS_TOKEN",
  // Checkout, orders, payments, invoices, bank transfers.
  "PRICE_CHANGED",
  "PRODUCT_UNAVAILABLE",
  "SHIPPING_ADDRESS_REQUIRED",
  "ORDER_NOT_FOUND",
  "ORDER_ITEM_NOT_FOUND",
  "ORDER_CANCELLED",
  "ORDER_NOT_CANCELLABLE",
  "ORDER_NOT_CONFIRMED",
  "ORDER_NOT_PAID",
  "ORDER_NOT_AWAITING_TRANSFER",
  "INVALID_ORDER_TRANSITION",
  "PAYMENT_SESSION_NOT_FOUND",
  "PROVIDER_NOT_FOUND",
  "INVALID_SIGNATURE",
  "INVOICE_NOT_AVAILABLE",
  "TRANSFER_ALREADY_RECORDED",
  "TRANSFER_REFERENCE_NOT_FOUND",
  // Shipping, refunds, reviews, questions.
  "SHIPMENT_NOT_FOUND",
  "ALREADY_SHIPPED",
  "NOT_SHIPPED",
  "ITEM_REFUNDED",
  "REFUND_NOT_FOUND",
  "REFUND_EXISTS",
  "REFUND_CLOSED",
  "REFUND_WINDOW_CLOSED",
  "REFUND_STEP_NOT_ALLOWED",
  "REFUND_MESSAGE_LIMIT",
  "ALREADY_REFUNDED",
  "OWN_PRODUCT",
  "NOT_ELIGIBLE",
  "PURCHASE_REFUNDED",
  "ALREADY_REVIEWED",
  "ALREADY_REPLIED",
  "ALREADY_REPORTED",
  "EDIT_WINDOW_CLOSED",
  "REVIEW_UNCHANGED",
  "ALREADY_ANSWERED",
  "QUESTION_LIMIT",
  "QUESTION_UNCHANGED",
  // Sellers' money: fees, commissions, payout details, payouts.
  "SELLER_NOT_FOUND",
  "FEE_RULE_NOT_FOUND",
  "COMMISSION_NOT_FOUND",
  "COMMISSION_NOT_HELD",
  "COUNTRY_REQUIRED",
  "PAYOUT_ACCOUNT_NOT_FOUND",
  "CONNECT_ACCOUNT_NOT_FOUND",
  "PAYOUT_NOT_FOUND",
  "PAYOUT_BATCH_NOT_FOUND",
  "PAYOUT_NOT_BANK",
  "PAYOUT_NOT_AWAITING_TRANSFER",
  "PAYOUT_NOT_RETRYABLE",
  "PAYOUT_SETTLED",
  "PAYOUT_DETAILS_UNKNOWN",
  "NO_BANK_PAYOUTS",
  "NOTHING_TO_PAY",
] as const;

export type ServerErrorCode = (typeof serverErrorCodes)[number];

/** Made by the web's fetch helper itself: the server could not be reached, or answered without a code. */
export const clientErrorCodes = ["NETWORK_ERROR", "HTTP_ERROR"] as const;

export const errorCodes = [...serverErrorCodes, ...clientErrorCodes] as const;

export type ErrorCode = (typeof errorCodes)[number];

const known: ReadonlySet<string> = new Set(errorCodes);

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && known.has(value);
}

export function isServerErrorCode(value: unknown): value is ServerErrorCode {
  return isErrorCode(value) && !(clientErrorCodes as readonly string[]).includes(value);
}
