import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * The journey of scripts/two-instances.sh: two production instances on one PostgreSQL behind HAProxy,
 * which names the instance that answered in `x-served-by`. Every step acts on one instance and checks
 * on the other, so a state kept in one process's memory would fail it.
 */
const env = {
  lb: process.env.LB_URL ?? "",
  a: process.env.LB_INSTANCE_A ?? "",
  b: process.env.LB_INSTANCE_B ?? "",
  dataA: process.env.LB_DATA_A ?? "",
  dataB: process.env.LB_DATA_B ?? "",
  password: process.env.LB_PASSWORD ?? "",
};
const direct: Record<string, string> = { a: env.a, b: env.b };

type Answer = { status: number; servedBy: string; body: unknown; headers: Headers };
type Session = { cookie: string };

async function call(
  base: string,
  method: string,
  url: string,
  options: { json?: unknown; form?: FormData; session?: Session } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.session) headers.cookie = options.session.cookie;
  if (options.json !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${base}${url}`, {
    method,
    headers,
    body: options.form ?? (options.json === undefined ? undefined : JSON.stringify(options.json)),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, servedBy: res.headers.get("x-served-by") ?? "", body, headers: res.headers };
}

const other = (name: string) => (name === "a" ? "b" : "a");

/** Signs in through the balancer; answers the session and the instance that made it. */
async function signIn(email: string): Promise<{ session: Session; servedBy: string }> {
  const res = await fetch(`${env.lb}/api/auth/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: env.password }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return { session: { cookie }, servedBy: res.headers.get("x-served-by") ?? "" };
}

/** The balancer's next request goes to `name`: round robin alternates, so at most one request is spent. */
async function nextGoesTo(name: string) {
  const probe = await call(env.lb, "GET", "/api/health");
  if (probe.servedBy === name) await call(env.lb, "GET", "/api/health");
}

async function mailsContaining(text: string): Promise<string[]> {
  const found: string[] = [];
  for (const dir of [env.dataA, env.dataB]) {
    const outbox = path.join(dir, "outbox");
    const files = await readdir(outbox).catch(() => [] as string[]);
    for (const file of files) {
      if ((await readFile(path.join(outbox, file), "utf8")).includes(text)) found.push(`${dir}:${file}`);
    }
  }
  return found;
}

describe.skipIf(!env.lb)("two instances behind HAProxy (run scripts/two-instances.sh)", () => {
  let admin: Session;
  let buyer: Session | undefined;

  beforeAll(async () => {
    // Health checks bring each server up within a second or two of the balancer's start.
    const deadline = Date.now() + 15_000;
    for (;;) {
      const seen = new Set<string>();
      for (let i = 0; i < 4; i++) seen.add((await call(env.lb, "GET", "/api/health")).servedBy);
      if (seen.has("a") && seen.has("b")) break;
      if (Date.now() > deadline) throw new Error(`The balancer only reached: ${[...seen].join(", ")}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    admin = (await signIn("admin@lb.test")).session;
  });

  it("alternates requests between the two instances", async () => {
    const servedBy: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await call(env.lb, "GET", "/api/health");
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ databaseKind: "postgres", database: "ok" });
      servedBy.push(res.servedBy);
    }
    for (let i = 1; i < servedBy.length; i++) expect(servedBy[i]).toBe(other(servedBy[i - 1] ?? ""));
  });

  it("keeps a session made on one instance on the other", async () => {
    const signedIn = await signIn("buyer@lb.test");
    buyer = signedIn.session;
    const me = await call(env.lb, "GET", "/api/me", { session: buyer });
    expect(me.servedBy).toBe(other(signedIn.servedBy));
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ user: { email: "buyer@lb.test" } });
    // And on each instance directly, whichever made the session.
    for (const base of [env.a, env.b]) {
      expect((await call(base, "GET", "/api/me", { session: buyer })).status).toBe(200);
    }
  });

  it("saves a product on one instance and lists it on the other; one edit refreshes both caches", async () => {
    const category = await call(env.lb, "POST", "/api/admin/categories", {
      session: admin,
      json: { name: `Balanced ${Date.now()}` },
    });
    expect(category.status, JSON.stringify(category.body)).toBe(201);
    const slug = (category.body as { category: { slug: string } }).category.slug;
    const product = {
      name: "Failover Gateway",
      category: slug,
      description: "Two of everything.",
      price: 10,
    };
    const created = await call(env.lb, "POST", "/api/manage/products", { session: admin, json: product });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = (created.body as { product: { id: string } }).product.id;

    // The buyer saves it on one instance and finds it saved on the other.
    buyer ??= (await signIn("buyer@lb.test")).session;
    const saved = await call(env.lb, "PUT", `/api/saved/${id}`, { session: buyer });
    expect(saved.status, JSON.stringify(saved.body)).toBeLessThan(300);
    const list = await call(env.lb, "GET", "/api/saved", { session: buyer });
    expect(list.servedBy).toBe(other(saved.servedBy));
    expect(JSON.stringify(list.body)).toContain(id);

    // Both instances cache the anonymous answer...
    for (const base of [env.a, env.b]) {
      for (let i = 0; i < 2; i++) {
        const read = await call(base, "GET", `/api/products/${id}`);
        expect(read.status).toBe(200);
        expect(read.body).toMatchObject({ price: 10 });
      }
    }
    // ...an edit answered by one instance reaches the other's cache by NOTIFY, a moment after the commit.
    await nextGoesTo("a");
    const edited = await call(env.lb, "PATCH", `/api/manage/products/${id}`, {
      session: admin,
      json: { ...product, price: 12.5 },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.servedBy).toBe("a");
    for (const base of [env.b, env.a]) {
      await expect
        .poll(async () => (await call(base, "GET", `/api/products/${id}`)).body, { timeout: 5_000 })
        .toMatchObject({ price: 12.5 });
    }
  });

  it("counts a rate limit across both instances", async () => {
    // POST /api/partner-applications allows 5 per client address in 10 minutes. With a counter in
    // each process, each instance would let 5 through (10 in all); shared, the 6th is refused,
    // though neither instance has answered more than 3.
    const application = {
      companyName: "Limit Labs",
      contactPerson: "Lee Limit",
      email: "lee@limit.test",
      productType: "saas",
      country: "germany",
      website: "https://limit.test",
      companySize: "startup",
      message: "Counting requests across two instances.",
      // The honeypot: the request is counted and answered as usual, nothing is stored or mailed.
      nickname: "bot",
    };
    const answers: Answer[] = [];
    for (let i = 0; i < 6; i++) {
      answers.push(await call(env.lb, "POST", "/api/partner-applications", { json: application }));
    }
    const statuses = answers.map((a) => a.status);
    expect(statuses.slice(0, 5), JSON.stringify(answers.map((a) => a.body))).toEqual([
      200, 200, 200, 200, 200,
    ]);
    expect(statuses[5]).toBe(429);
    expect(answers[5]?.body).toMatchObject({ code: "RATE_LIMITED" });
    const accepted = answers.slice(0, 5).map((a) => a.servedBy);
    expect(accepted.filter((s) => s === "a").length).toBeGreaterThanOrEqual(2);
    expect(accepted.filter((s) => s === "b").length).toBeGreaterThanOrEqual(2);
  });

  it("runs a job enqueued by one instance exactly once", async () => {
    // The contact form enqueues an e-mail (pg-boss, on PostgreSQL); both instances work the queue,
    // each writing what it sends to its own outbox.
    const token = `lbtoken${Date.now()}`;
    const sent = await call(env.lb, "POST", "/api/contact", {
      json: {
        name: `Job ${token}`,
        email: "job@lb.test",
        subject: "general",
        message: `Checking that ${token} is mailed once.`,
      },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    await expect.poll(() => mailsContaining(token), { timeout: 15_000, interval: 250 }).toHaveLength(1);
    // Both workers poll every 2 s: after a few more polls a second delivery would have shown.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect(await mailsContaining(token)).toHaveLength(1);
  });

  it("serves an image uploaded on one instance through the other", async () => {
    const seller = (await signIn("seller@lb.test")).session;
    const png = await sharp({
      create: { width: 64, height: 48, channels: 3, background: { r: 20, g: 120, b: 200 } },
    })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "pixel.png");
    const uploaded = await call(env.lb, "POST", "/api/uploads/images", { session: seller, form });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const { url } = uploaded.body as { url: string };
    // A bucket's URL is absolute; a path would be served by the instances themselves.
    const image = await fetch(new URL(url, direct[other(uploaded.servedBy)]));
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/webp");
  });

  // Last: it stops instance a. A rolling restart stops one instance at a time like this.
  it("stops an instance with SIGTERM while requests flow, and not one of them fails", async () => {
    const pid = Number(process.env.LB_PID_A);
    expect(pid).toBeGreaterThan(0);
    const statuses: number[] = [];
    const servedBy: string[] = [];
    let stopped = false;
    const client = async () => {
      while (!stopped) {
        const res = await fetch(`${env.lb}/api/products?pageSize=1`);
        await res.arrayBuffer();
        statuses.push(res.status);
        servedBy.push(res.headers.get("x-served-by") ?? "");
      }
    };
    const clients = Array.from({ length: 4 }, client);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(new Set(servedBy)).toEqual(new Set(["a", "b"]));
    process.kill(pid, "SIGTERM");
    // Readiness turns 503 at once, HAProxy's checks take a out, and a closes after its grace period.
    await expect
      .poll(
        () => {
          try {
            process.kill(pid, 0);
            return "running";
          } catch {
            return "exited";
          }
        },
        { timeout: 20_000, interval: 200 },
      )
      .toBe("exited");
    const afterExit = servedBy.length;
    await new Promise((resolve) => setTimeout(resolve, 500));
    stopped = true;
    await Promise.all(clients);
    // Each failure with the instance that answered it (none: the balancer itself answered).
    const failures = statuses.flatMap((status, i) =>
      status === 200 ? [] : [`${status} from ${servedBy[i] || "HAProxy"}`],
    );
    expect(failures).toEqual([]);
    expect(new Set(servedBy.slice(afterExit))).toEqual(new Set(["b"]));
  });
});
