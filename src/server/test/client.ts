import type { App } from "#server/app";
import { readOutbox } from "#server/test/outbox";

let address = 0;

/**
 * A browser-like client for `app.inject`: keeps the cookies the server sets and comes from its own
 * address, so per-IP rate limits of one test do not spill into another.
 */
export function createClient(
  app: App,
  remoteAddress = `10.9.${Math.floor(++address / 250)}.${address % 250}`,
  userAgent?: string,
) {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");

  async function request(method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE", url: string, payload?: object) {
    const res = await app.inject({
      method,
      url,
      remoteAddress,
      headers: {
        ...(userAgent ? { "user-agent": userAgent } : {}),
        ...(jar.size > 0 ? { cookie: cookieHeader() } : {}),
      },
      ...(payload === undefined ? {} : { payload }),
    });
    for (const cookie of res.cookies) {
      const expired = cookie.maxAge === 0 || (cookie.expires && cookie.expires.getTime() <= Date.now());
      if (expired || cookie.value === "") jar.delete(cookie.name);
      else jar.set(cookie.name, cookie.value);
    }
    return res;
  }

  return {
    jar,
    cookieHeader,
    get: (url: string) => request("GET", url),
    post: (url: string, payload: object = {}) => request("POST", url, payload),
    patch: (url: string, payload: object) => request("PATCH", url, payload),
    request,
  };
}

/** The newest 6-digit code e-mailed to `email`, read from the outbox as a person would. */
export async function latestCode(dataDir: string, email: string): Promise<string> {
  const mails = (await readOutbox(dataDir)).filter((m) => m.to === email);
  const code = mails.at(-1)?.body.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code was mailed to ${email}`);
  return code;
}

/** Signs up, reads the code from the outbox and verifies: an account ready to log in. */
export async function createVerifiedAccount(
  app: App,
  dataDir: string,
  person: { email: string; password?: string; firstName?: string; accountType?: "buyer" | "seller" },
) {
  const client = createClient(app);
  const password = person.password ?? "correct horse battery";
  const signUp = await client.post("/api/auth/sign-up", {
    firstName: person.firstName ?? "Test",
    lastName: "Person",
    email: person.email,
    password,
    accountType: person.accountType ?? "buyer",
  });
  if (signUp.statusCode !== 200) throw new Error(`sign-up failed: ${signUp.body}`);
  const code = await latestCode(dataDir, person.email);
  const verified = await client.post("/api/auth/verify-email", { email: person.email, code });
  if (verified.statusCode !== 200) throw new Error(`verification failed: ${verified.body}`);
  return { email: person.email, password };
}

/** A client signed in with e-mail and password (for accounts without two-factor). */
export async function signedInClient(app: App, email: string, password: string) {
  const client = createClient(app);
  const res = await client.post("/api/auth/sign-in", { email, password });
  if (res.statusCode !== 200) throw new Error(`sign-in failed for ${email}: ${res.body}`);
  return client;
}
