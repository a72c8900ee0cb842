import { describe, expect, test } from "vitest";
import { EnvError, loadEnv, publicUrl } from "#server/env";

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
    expect(loadEnv({ NODE_ENV: "production", AUTH_SECRET: "x".repeat(32) }).AUTH_SECRET).toHaveLength(32);
  });

  test("parses TRUST_PROXY and PUBLIC_URL", () => {
    const env = loadEnv({ TRUST_PROXY: "1", PUBLIC_URL: "https://stackbay.example" });
    expect(env.TRUST_PROXY).toBe(true);
    expect(publicUrl(env)).toBe("https://stackbay.example");
  });
});
