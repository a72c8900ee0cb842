import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, expect, inject, test } from "vitest";
import { LICENSED_CATEGORIES } from "#domain/licenses";
import type { ResellerLinks } from "#domain/referrals";
import { openDatabase } from "#server/db/client";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { queryRows } from "#server/test/app";
import { orderBody } from "#server/test/orders";
import { readOutbox } from "#server/test/outbox";
import { freePort } from "#server/test/ports";

/**
 * The real server (`src/server/main.ts`, payments in test mode), killed with SIGKILL between sending
 * buyers to pay and their payments' answers, and started again: half the orders were paid before the
 * kill, the other half were only redirected. Those stay pending through the crash (never failed, never
 * confirmed without a payment) until their payment's event arrives on the restarted server; in the
 * end every order is confirmed with its licenses, commission and e-mail exactly once.
 */

const CHECKOUTS = 24;
/**
 * Bounds, generous because a loaded machine (CI, parallel test files) can take a minute to start a
 * server; an idle one boots in a few seconds and the whole test takes about 20.
 */
const BOOT_MS = 90_000;
const WAIT_MS = 60_000;
const BROWSER =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";

const children = new Set<ChildProcess>();
let dataDir = "";
afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function startServer(entry: string, env: Record<string, string>): ChildProcess {
  const { DATABASE_URL: _external, ...inherited } = process.env;
  const child = spawn(process.execPath, [path.resolve(entry)], {
    env: { ...inherited, ...env },
    stdio: "ignore",
  });
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

async function waitForHealth(base: string, child: ChildProcess) {
  const deadline = Date.now() + BOOT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    const ok = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2_000) })
      .then((res) => res.ok)
      .catch(() => false);
    if (ok) return;
    await sleep(200);
  }
  throw new Error(`the server did not become healthy in ${BOOT_MS / 1000} s`);
}

function exited(child: ChildProcess, ms: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the server did not exit")), ms);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** A cookie jar over fetch, each request from its own forwarded address (checkout is rate-limited per address). */
function session(base: string) {
  const jar = new Map<string, string>();
  let address = 0;
  return {
    jar,
    async call(method: string, url: string, body?: unknown) {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: {
          "user-agent": BROWSER,
          "x-forwarded-for": `10.77.${Math.floor(++address / 250)}.${address % 250}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...(jar.size > 0 ? { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(WAIT_MS),
      });
      for (const line of res.headers.getSetCookie()) {
        const [pair = ""] = line.split(";");
        const at = pair.indexOf("=");
        jar.set(pair.slice(0, at), pair.slice(at + 1));
      }
      return res;
    },
  };
}

async function signIn(base: string, email: string) {
  const s = session(base);
  const res = await s.call("POST", "/api/auth/sign-in", { email, password: DEMO_PASSWORD });
  expect(res.status).toBe(200);
  return s;
}

// The servers it starts always run on the embedded database (DATABASE_URL is not passed on).
test("orders whose payment was under way at a crash stay pending until paid, then are all delivered once", {
  timeout: 2 * BOOT_MS + 5 * WAIT_MS,
}, async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "stackbay-crash-"));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    NODE_ENV: "development",
    DATA_DIR: dataDir,
    HOST: "127.0.0.1",
    PORT: String(port),
    LOG_LEVEL: "warn",
    TRUST_PROXY: "true",
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    // A mail job the kill interrupted fails by heartbeat, then waits this long for its retry.
    MAIL_RETRY_SECONDS: "1",
  };

  // The first server opens an install that already holds the demo data and pictures (the run's seeded
  // template) instead of creating, migrating and seeding one: what is proven here is the restart.
  const templates = inject("databaseTemplates");
  const seeded = await openDatabase({
    dataDir,
    snapshot: new Blob([await readFile(templates.pglite.seeded)]),
  });
  await seeded.close();
  await cp(templates.uploadsDir, path.join(dataDir, "uploads"), { recursive: true });

  const first = startServer("src/server/main.ts", env);
  await waitForHealth(base, first);

  // The buyer follows the reseller's link to a licensed product, then checks out many times at once.
  const reseller = await signIn(base, "reseller@stackbay.test");
  // A development server keeps real time: the test clock's route exists on test servers only.
  expect((await reseller.call("POST", "/api/test/clock", { advanceDays: 15 })).status).toBe(404);
  const links = (await (
    await reseller.call("GET", "/api/reseller/links?pageSize=100")
  ).json()) as ResellerLinks;
  const offered = links.items.find((p) => p.linkable && LICENSED_CATEGORIES.includes(p.category));
  if (!offered) throw new Error("the demo data has no resellable licensed product");
  const buyer = await signIn(base, "buyer@stackbay.test");
  const visit = await buyer.call("POST", "/api/referrals/visit", {
    code: links.code,
    productId: offered.productId,
  });
  expect(visit.status).toBeLessThan(300);
  expect(buyer.jar.has("stackbay_ref")).toBe(true);

  const placed = await Promise.all(
    Array.from({ length: CHECKOUTS }, async () => {
      const res = await buyer.call(
        "POST",
        "/api/orders",
        orderBody({ items: [{ productId: offered.productId, quantity: 2, price: offered.price }] }),
      );
      expect(res.status).toBe(201);
      return (await res.json()) as { orderId: string; redirectUrl: string };
    }),
  );
  const pay = async ({ redirectUrl }: { redirectUrl: string }) => {
    const ref = new URL(redirectUrl).pathname.split("/").at(-1);
    const res = await buyer.call("POST", `/api/payments/test/sessions/${ref}/choice`, { choice: "pay" });
    expect(res.status).toBe(200);
  };
  const statuses = async () => {
    const mine = (await (await buyer.call("GET", "/api/orders")).json()) as {
      items: { id: string; paymentStatus: string }[];
    };
    return new Map(mine.items.map((o) => [o.id, o.paymentStatus]));
  };
  const waitUntil = async (done: (seen: Map<string, string>) => boolean) => {
    const deadline = Date.now() + WAIT_MS;
    let seen = await statuses();
    while (Date.now() < deadline && !done(seen)) {
      await sleep(100);
      seen = await statuses();
    }
    return seen;
  };

  // Half are paid and their events confirm them; the other half were only sent to the payment page.
  const paidFirst = placed.slice(0, CHECKOUTS / 2);
  const paidLater = placed.slice(CHECKOUTS / 2);
  await Promise.all(paidFirst.map(pay));
  const beforeKill = await waitUntil((seen) =>
    paidFirst.every((o) => seen.get(o.orderId) === "mock_confirmed"),
  );
  expect(paidFirst.every((o) => beforeKill.get(o.orderId) === "mock_confirmed")).toBe(true);
  first.kill("SIGKILL");
  await exited(first, 10_000);

  const second = startServer("src/server/main.ts", env);
  await waitForHealth(base, second);
  const afterCrash = await statuses();
  expect(paidLater.map((o) => afterCrash.get(o.orderId))).toEqual(paidLater.map(() => "pending"));
  await Promise.all(paidLater.map(pay));
  const end = await waitUntil((seen) => placed.every((o) => seen.get(o.orderId) === "mock_confirmed"));
  expect(placed.filter((o) => end.get(o.orderId) !== "mock_confirmed")).toEqual([]);
  // The e-mails are queued with the deliveries; a mail job the killed server had started is taken up
  // again once it expires (a minute) or its heartbeat has stopped.
  const mailUntil = Date.now() + 2 * WAIT_MS;
  const confirmedMails = async () =>
    (await readOutbox(dataDir)).filter((m) => m.subject.endsWith(" is confirmed")).length;
  while (Date.now() < mailUntil && (await confirmedMails()) < CHECKOUTS) await sleep(250);
  second.kill("SIGTERM");
  await exited(second, 15_000);

  const database = await openDatabase({ dataDir });
  try {
    const rows = await queryRows<{
      id: string;
      payment_status: string;
      licenses: number;
      units: number;
      commissions: number;
    }>(
      database.db,
      sql`select o.id, o.payment_status,
            (select count(*)::int from licenses l where l.order_id = o.id) as licenses,
            (select coalesce(sum(i.quantity), 0)::int from order_items i where i.order_id = o.id) as units,
            (select count(*)::int from commissions c where c.order_id = o.id) as commissions
          from orders o where o.id in (${sql.join(
            placed.map((o) => sql`${o.orderId}::uuid`),
            sql`, `,
          )})`,
    );
    expect(rows).toHaveLength(CHECKOUTS);
    expect(rows.filter((r) => r.payment_status !== "mock_confirmed")).toEqual([]);
    // One key per unit of the licensed item, and the reseller's commission on it, for every order.
    expect(rows.filter((r) => r.licenses !== r.units || r.commissions !== 1)).toEqual([]);
    // And one confirmation e-mail each, whichever server run delivered it.
    const confirmations = (await readOutbox(dataDir)).filter((m) => m.subject.endsWith(" is confirmed"));
    expect(new Set(confirmations.map((m) => m.subject)).size).toBe(CHECKOUTS);
    expect(confirmations).toHaveLength(CHECKOUTS);
  } finally {
    await database.close();
  }
});
