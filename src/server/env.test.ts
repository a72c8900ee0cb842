import { describe, expect, test } from "vitest";
import { EnvError, loadEnv, operatorTrn, publicUrl } from "#server/env";
import { newLicenseSigningKey } from "#server/lib/license-signing";

const LICENSE_SIGNING_KEY = newLicenseSigningKey();

describe("loadEnv", () => {
  test("applies the documented defaults", () => {
    const env = loadEnv({});
    expect(env).toMatchObject({
      NODE_ENV: "development",
      HOST: "127.0.0.1",
      PORT: 3000,
      DATA_DIR: "./data",
      LOG_LEVEL: "info",
      TRUST_PROXY: false,
    });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(publicUrl(env)).toBe("http://127.0.0.1:3000");
  });

  test("the footer's social links are https addresses, each unset unless given", () => {
    const env = loadEnv({ SOCIAL_X_URL: "https://x.com/our-account" });
    expect(env.SOCIAL_X_URL).toBe("https://x.com/our-account");
    expect(env.SOCIAL_LINKEDIN_URL).toBeUndefined();
    expect(() => loadEnv({ SOCIAL_GITHUB_URL: "http://github.com/ours" })).toThrow(
      /SOCIAL_GITHUB_URL must be an https:\/\/ address/,
    );
    expect(() => loadEnv({ SOCIAL_YOUTUBE_URL: "our channel" })).toThrow(/SOCIAL_YOUTUBE_URL/);
  });

  test("treats an empty variable as unset", () => {
    expect(loadEnv({ DATABASE_URL: "", PORT: "" }).PORT).toBe(3000);
  });

  test("lists every bad variable at once, not just the first", () => {
    let caught: unknown;
    try {
      loadEnv({
        PORT: "http",
        DATABASE_URL: "mysql://x",
        LOG_LEVEL: "loud",
        TRUST_PROXY: "maybe",
        SMTP_URL: "mail",
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(EnvError);
    const problems = (caught as EnvError).problems.map((p) => p.split(" ")[0]);
    expect(problems.sort()).toEqual(["DATABASE_URL", "LOG_LEVEL", "PORT", "SMTP_URL", "TRUST_PROXY"]);
    expect((caught as EnvError).message).toContain("DATABASE_URL must be a postgres:// or postgresql:// URL");
  });

  test("requires a strong AUTH_SECRET in production only", () => {
    expect(() => loadEnv({ NODE_ENV: "production" })).toThrow(
      /AUTH_SECRET is required when NODE_ENV=production/,
    );
    expect(() => loadEnv({ NODE_ENV: "production", AUTH_SECRET: "short" })).toThrow(
      /AUTH_SECRET must be at least 32/,
    );
    expect(
      loadEnv({
        NODE_ENV: "production",
        AUTH_SECRET: "x".repeat(32),
        LICENSE_SIGNING_KEY,
        ALLOW_TEST_PAYMENTS: "true",
        OPERATOR_TRN: "100123456700003",
      }).AUTH_SECRET,
    ).toHaveLength(32);
  });

  test("production needs an Ed25519 licence-signing key, as a PEM or base64 DER; elsewhere none is needed", () => {
    const production = {
      NODE_ENV: "production",
      AUTH_SECRET: "x".repeat(32),
      ALLOW_TEST_PAYMENTS: "true",
      OPERATOR_TRN: "100123456700003",
    };
    expect(() => loadEnv(production)).toThrow(/LICENSE_SIGNING_KEY is required when NODE_ENV=production/);
    expect(loadEnv({ ...production, LICENSE_SIGNING_KEY }).LICENSE_SIGNING_KEY).toBe(LICENSE_SIGNING_KEY);
    const der = LICENSE_SIGNING_KEY.replace(/-----[A-Z ]+-----/g, "").replace(/\s/g, "");
    expect(loadEnv({ ...production, LICENSE_SIGNING_KEY: der }).LICENSE_SIGNING_KEY).toBe(der);
    expect(() => loadEnv({ ...production, LICENSE_SIGNING_KEY: "not a key" })).toThrow(
      /LICENSE_SIGNING_KEY must be an Ed25519 private key/,
    );
    expect(loadEnv({}).LICENSE_SIGNING_KEY).toBeUndefined();
    expect(loadEnv({}).LICENSE_ACTIVATION_STALE_DAYS).toBe(30);
    expect(loadEnv({ LICENSE_ACTIVATION_STALE_DAYS: "7" }).LICENSE_ACTIVATION_STALE_DAYS).toBe(7);
  });

  test("production refuses test-mode payments unless allowed, and provider keys come in sets", () => {
    const secret = "x".repeat(32);
    expect(() => loadEnv({ NODE_ENV: "production", AUTH_SECRET: secret })).toThrow(
      /ALLOW_TEST_PAYMENTS must be true to run in production with payments in test mode \(no money is taken for: stripe, apple-pay, paypal, bank-transfer\)/,
    );
    const live = {
      NODE_ENV: "production",
      AUTH_SECRET: secret,
      LICENSE_SIGNING_KEY,
      OPERATOR_TRN: "100123456700003",
      STRIPE_SECRET_KEY: "sk_live_abc",
      STRIPE_WEBHOOK_SECRET: "whsec_abc",
      PAYPAL_CLIENT_ID: "paypal-client-id",
      PAYPAL_CLIENT_SECRET: "paypal-client-secret",
      PAYPAL_WEBHOOK_ID: "WH-123",
      BANK_ACCOUNT_NAME: "Stackbay FZ-LLC",
      BANK_NAME: "Emirates NBD",
      BANK_IBAN: "AE07 0331 2345 6789 0123 456",
      BANK_SWIFT: "ebiladad",
    };
    expect(loadEnv(live).ALLOW_TEST_PAYMENTS).toBe(false);
    expect(() => loadEnv({ ...live, BANK_IBAN: "" })).toThrow(/no money is taken for: bank-transfer\)/);
    expect(() => loadEnv({ ...live, STRIPE_WEBHOOK_SECRET: "" })).toThrow(
      /STRIPE_WEBHOOK_SECRET is missing: STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together/,
    );
    expect(() => loadEnv({ ...live, STRIPE_CONNECT_WEBHOOK_SECRET: "whsec_abc" })).toThrow(
      /STRIPE_CONNECT_WEBHOOK_SECRET must be the Connect endpoint's own signing secret/,
    );
    expect(
      loadEnv({ ...live, STRIPE_CONNECT_WEBHOOK_SECRET: "whsec_connect" }).STRIPE_CONNECT_WEBHOOK_SECRET,
    ).toBe("whsec_connect");
    // Both HMRC credentials, or neither.
    expect(() => loadEnv({ HMRC_CLIENT_ID: "hmrc-client-id" })).toThrow(
      /HMRC_CLIENT_SECRET is missing: HMRC_CLIENT_ID and HMRC_CLIENT_SECRET must be set together/,
    );
    expect(loadEnv({ HMRC_REQUESTER_VRN: "GB 553 5575 81" }).HMRC_REQUESTER_VRN).toBe("553557581");
    expect(loadEnv({ VIES_REQUESTER_VAT: "nl 8179.04.289.B01" }).VIES_REQUESTER_VAT).toBe("NL817904289B01");
    expect(() => loadEnv({ ...live, PAYPAL_WEBHOOK_ID: "" })).toThrow(
      /PAYPAL_WEBHOOK_ID is missing: PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET and PAYPAL_WEBHOOK_ID must be set together/,
    );
    expect(loadEnv({}).PAYMENT_EXPIRY_MINUTES).toBe(60);
    expect(() => loadEnv({ PAYMENT_EXPIRY_MINUTES: "1" })).toThrow(/PAYMENT_EXPIRY_MINUTES/);
  });

  test("bank details are validated and come as a set; India's pair too", () => {
    const bank = {
      BANK_ACCOUNT_NAME: "Stackbay FZ-LLC",
      BANK_NAME: "Emirates NBD",
      BANK_IBAN: "AE07 0331 2345 6789 0123 456",
      BANK_SWIFT: "ebiladad",
    };
    const env = loadEnv(bank);
    expect(env.BANK_IBAN).toBe("AE070331234567890123456");
    expect(env.BANK_SWIFT).toBe("EBILADAD");
    expect(env.BANK_TRANSFER_EXPIRY_DAYS).toBe(7);
    expect(() => loadEnv({ ...bank, BANK_IBAN: "AE08 0331 2345 6789 0123 456" })).toThrow(
      /BANK_IBAN must be a valid IBAN/,
    );
    expect(() => loadEnv({ ...bank, BANK_SWIFT: "EBI" })).toThrow(/BANK_SWIFT must be a SWIFT\/BIC code/);
    expect(() => loadEnv({ ...bank, BANK_NAME: "" })).toThrow(
      /BANK_NAME is missing: BANK_ACCOUNT_NAME, BANK_NAME, BANK_IBAN, BANK_SWIFT must be set together/,
    );
    expect(() => loadEnv({ ...bank, BANK_IFSC: "HDFC0001234" })).toThrow(
      /BANK_ACCOUNT_NUMBER is missing: BANK_ACCOUNT_NUMBER and BANK_IFSC must be set together/,
    );
    expect(
      loadEnv({ ...bank, BANK_IFSC: "hdfc0001234", BANK_ACCOUNT_NUMBER: "50100123456789" }).BANK_IFSC,
    ).toBe("HDFC0001234");
    expect(() => loadEnv({ BANK_TRANSFER_EXPIRY_DAYS: "0" })).toThrow(/BANK_TRANSFER_EXPIRY_DAYS/);
  });

  test("the operator's TRN is required in production, checked, and a plain demo number elsewhere", () => {
    const production = {
      NODE_ENV: "production",
      AUTH_SECRET: "x".repeat(32),
      LICENSE_SIGNING_KEY,
      ALLOW_TEST_PAYMENTS: "true",
    };
    expect(() => loadEnv(production)).toThrow(/OPERATOR_TRN is required when NODE_ENV=production/);
    expect(() => loadEnv({ ...production, OPERATOR_TRN: "200123456700003" })).toThrow(
      /OPERATOR_TRN must be a UAE TRN: 15 digits starting with 100/,
    );
    const env = loadEnv({ ...production, OPERATOR_TRN: "100-1234-5670-0003" });
    expect(operatorTrn(env)).toBe("100123456700003");
    expect(operatorTrn(loadEnv({}))).toBe("100000000000000 (demo)");
  });

  test("parses TRUST_PROXY and PUBLIC_URL", () => {
    const env = loadEnv({ TRUST_PROXY: "1", PUBLIC_URL: "https://stackbay.example" });
    expect(env.TRUST_PROXY).toBe(true);
    expect(publicUrl(env)).toBe("https://stackbay.example");
  });

  test("storage is local by default; the s3 driver needs its bucket, keys and public URL", () => {
    const local = loadEnv({});
    expect(local).toMatchObject({
      STORAGE_DRIVER: "local",
      S3_REGION: "us-east-1",
      S3_FORCE_PATH_STYLE: false,
    });
    expect(() => loadEnv({ STORAGE_DRIVER: "gcs" })).toThrow(/STORAGE_DRIVER must be local or s3/);

    let caught: unknown;
    try {
      loadEnv({ STORAGE_DRIVER: "s3", S3_SECRET_ACCESS_KEY: "very-secret-value" });
    } catch (error) {
      caught = error;
    }
    const problems = (caught as EnvError).problems;
    const required =
      "is required when STORAGE_DRIVER=s3 (S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_PUBLIC_BASE_URL must all be set)";
    expect(problems).toEqual([
      `S3_BUCKET ${required}`,
      `S3_ACCESS_KEY_ID ${required}`,
      `S3_PUBLIC_BASE_URL ${required}`,
    ]);
    // The message names variables, never their values.
    expect((caught as EnvError).message).not.toContain("very-secret-value");

    const s3 = {
      STORAGE_DRIVER: "s3",
      S3_BUCKET: "stackbay-uploads",
      S3_ACCESS_KEY_ID: "AKIAEXAMPLE",
      S3_SECRET_ACCESS_KEY: "secret",
      S3_PUBLIC_BASE_URL: "https://cdn.stackbay.example/uploads/",
    };
    expect(loadEnv({ ...s3, S3_FORCE_PATH_STYLE: "true" })).toMatchObject({
      S3_PUBLIC_BASE_URL: "https://cdn.stackbay.example/uploads",
      S3_FORCE_PATH_STYLE: true,
    });
    expect(() => loadEnv({ ...s3, S3_PUBLIC_BASE_URL: "cdn.stackbay.example" })).toThrow(
      /S3_PUBLIC_BASE_URL must be an http\(s\) URL, e.g. https:\/\/cdn.example.com\/uploads/,
    );
    expect(() => loadEnv({ ...s3, S3_ENDPOINT: "minio:9000" })).toThrow(
      /S3_ENDPOINT must be the server's URL, e.g. https:\/\/s3.example.com/,
    );
  });
});
