import { expect, test } from "vitest";
import { CatalogueCache } from "#server/lib/catalogue-cache";

const deferred = () => {
  let resolve!: (value: string) => void;
  const promise = new Promise<string>((r) => {
    resolve = r;
  });
  return { promise, resolve };
};

test("concurrent misses on one key share one load", async () => {
  const cache = new CatalogueCache();
  const gate = deferred();
  let loads = 0;
  const load = async () => {
    loads++;
    return gate.promise;
  };
  const answers = Array.from({ length: 50 }, () => cache.getOrLoad("k", load));
  gate.resolve('{"a":1}');
  const bodies = (await Promise.all(answers)).map((a) => a.body);
  expect(loads).toBe(1);
  expect(new Set(bodies)).toEqual(new Set(['{"a":1}']));
  await cache.getOrLoad("k", load);
  expect(loads).toBe(1);
});

test("an expired entry is reloaded once however many ask at the same moment", async () => {
  let clock = 0;
  const cache = new CatalogueCache({ ttlMs: 1000, now: () => clock });
  let loads = 0;
  const load = async () => String(++loads);
  await cache.getOrLoad("k", load);
  clock = 1000;
  const answers = await Promise.all(Array.from({ length: 20 }, () => cache.getOrLoad("k", load)));
  expect(loads).toBe(2);
  expect(answers.every((a) => a.body === "2")).toBe(true);
});

test("the same body has the same strong ETag, another body another", async () => {
  const cache = new CatalogueCache();
  const a = await cache.getOrLoad("a", async () => "[1]");
  const b = await cache.getOrLoad("b", async () => "[1]");
  const c = await cache.getOrLoad("c", async () => "[2]");
  expect(a.etag).toMatch(/^"[\w-]+"$/);
  expect(a.etag).toBe(b.etag);
  expect(c.etag).not.toBe(a.etag);
});

test("drops the least recently used entry when the entry or byte cap is reached", async () => {
  let loads = 0;
  const cache = new CatalogueCache({ maxEntries: 2 });
  const load = async () => String(++loads);
  await cache.getOrLoad("a", load);
  await cache.getOrLoad("b", load);
  await cache.getOrLoad("a", load);
  await cache.getOrLoad("c", load);
  expect((await cache.getOrLoad("a", load)).body).toBe("1");
  expect((await cache.getOrLoad("b", load)).body).toBe("4");

  const small = new CatalogueCache({ maxBytes: 10 });
  await small.getOrLoad("x", async () => "12345");
  await small.getOrLoad("y", async () => "123456");
  expect(small.size).toEqual({ entries: 1, bytes: 6 });
});

test("a load that began before clear() answers its callers but is not kept, and later callers start anew", async () => {
  const cache = new CatalogueCache();
  const gate = deferred();
  let loads = 0;
  const first = cache.getOrLoad("k", async () => {
    loads++;
    return gate.promise;
  });
  cache.clear();
  const second = cache.getOrLoad("k", async () => {
    loads++;
    return "new";
  });
  gate.resolve("old");
  expect((await first).body).toBe("old");
  expect((await second).body).toBe("new");
  expect((await cache.getOrLoad("k", async () => "again")).body).toBe("new");
  expect(loads).toBe(2);
});

test("the load is aborted when every caller waiting for it has gone, not before", async () => {
  const cache = new CatalogueCache();
  let seen: AbortSignal | undefined;
  const load = (signal: AbortSignal) => {
    seen = signal;
    return new Promise<string>((_resolve, reject) =>
      signal.addEventListener("abort", () => reject(new Error("cancelled"))),
    );
  };
  const one = new AbortController();
  const two = new AbortController();
  const a = cache.getOrLoad("k", load, one.signal);
  const b = cache.getOrLoad("k", load, two.signal);
  one.abort();
  expect(seen?.aborted).toBe(false);
  two.abort();
  expect(seen?.aborted).toBe(true);
  await expect(a).rejects.toThrow("cancelled");
  await expect(b).rejects.toThrow("cancelled");
  expect((await cache.getOrLoad("k", async () => "fresh")).body).toBe("fresh");
});

test("numbers are cached beside answers", async () => {
  const cache = new CatalogueCache();
  let loads = 0;
  expect(await cache.value("n", async () => ++loads + 41)).toBe(42);
  expect(await cache.value("n", async () => ++loads)).toBe(42);
});

test("while suspended nothing is kept, though concurrent misses still share a load", async () => {
  const cache = new CatalogueCache();
  let loads = 0;
  const load = async () => String(++loads);
  await cache.getOrLoad("k", load);
  cache.suspend(true);
  const [a, b] = await Promise.all([cache.getOrLoad("k", load), cache.getOrLoad("k", load)]);
  expect([a.body, b.body]).toEqual(["2", "2"]);
  expect((await cache.getOrLoad("k", load)).body).toBe("3");
  cache.suspend(false);
  expect((await cache.getOrLoad("k", load)).body).toBe("4");
  expect((await cache.getOrLoad("k", load)).body).toBe("4");
});
