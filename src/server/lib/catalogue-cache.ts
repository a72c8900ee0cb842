import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { type Database, rowsOf } from "#server/db/client";

/** A cached answer: the JSON exactly as sent, and its strong validator. */
export type CachedAnswer = { body: string; etag: string; gzip?: Buffer };

type Entry = CachedAnswer & { expires: number; bytes: number };

type Flight = {
  promise: Promise<CachedAnswer>;
  controller: AbortController;
  /** Requests still waiting for this load; when the last one leaves, the load is cancelled. */
  waiters: number;
};

export type CatalogueCacheOptions = {
  /** Longest life of an entry. Invalidation is by notification, so this is only a backstop. */
  ttlMs?: number;
  maxEntries?: number;
  /** Sum of the cached bodies' lengths (UTF-16 units, close enough to bytes for JSON) kept at most. */
  maxBytes?: number;
  now?: () => number;
};

export const strongEtag = (body: string) =>
  `"${createHash("sha1").update(body).digest("base64url").slice(0, 27)}"`;

/**
 * The public catalogue's answers, serialised once and kept in memory on this instance (decision 0018).
 * Least recently used entries go first when either cap is reached; concurrent misses on one key share one
 * load; `clear()` (a catalogue table changed, here or on another instance) also keeps loads that were
 * already running from storing what they read before the change.
 */
export class CatalogueCache {
  private readonly entries = new Map<string, Entry>();
  private readonly flights = new Map<string, Flight>();
  private bytes = 0;
  private generation = 0;
  private suspended = false;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly now: () => number;
  readonly stats = { hits: 0, misses: 0, loads: 0, clears: 0 };

  constructor(options: CatalogueCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? 5 * 60_000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    this.now = options.now ?? Date.now;
  }

  /** Entries held and their size, for tests and the system screen. */
  get size() {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /**
   * The cached answer for `key`, or the one load already running for it, or a new load. `load` gets a
   * signal that aborts once every request waiting for it has gone (`signal` is the caller's, e.g. its
   * connection closing), so the database can stop working for nobody.
   */
  getOrLoad(
    key: string,
    load: (signal: AbortSignal) => Promise<string>,
    signal?: AbortSignal,
  ): Promise<CachedAnswer> {
    const hit = this.get(key);
    if (hit) return Promise.resolve(hit);
    return this.load(key, load, signal);
  }

  /** The cached answer, if any: the hot path, with no promise or signal to make. */
  get(key: string): CachedAnswer | undefined {
    const hit = this.entries.get(key);
    if (!hit || hit.expires <= this.now() || this.suspended) return undefined;
    this.stats.hits++;
    // Map order is insertion order: moving a hit to the end keeps the least recently used first.
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit;
  }

  /** Joins the load running for `key` or starts one (after `get` missed). */
  load(
    key: string,
    load: (signal: AbortSignal) => Promise<string>,
    signal?: AbortSignal,
  ): Promise<CachedAnswer> {
    this.stats.misses++;
    const flight = this.flights.get(key) ?? this.startFlight(key, load);
    flight.waiters++;
    if (signal) {
      const leave = () => {
        flight.waiters--;
        if (flight.waiters === 0 && this.flights.get(key) === flight) {
          this.flights.delete(key);
          flight.controller.abort();
        }
      };
      if (signal.aborted) leave();
      else {
        signal.addEventListener("abort", leave, { once: true });
        void flight.promise.then(
          () => signal.removeEventListener("abort", leave),
          () => signal.removeEventListener("abort", leave),
        );
      }
    }
    return flight.promise;
  }

  private startFlight(key: string, load: (signal: AbortSignal) => Promise<string>): Flight {
    const generation = this.generation;
    const controller = new AbortController();
    this.stats.loads++;
    const flight: Flight = { promise: Promise.resolve({ body: "", etag: "" }), controller, waiters: 0 };
    flight.promise = (async () => {
      try {
        const body = await load(controller.signal);
        const answer = { body, etag: strongEtag(body) };
        // A change committed while this load ran may not be in what it read: answer, but keep nothing.
        if (generation === this.generation && !this.suspended) this.store(key, answer);
        return answer;
      } finally {
        if (this.flights.get(key) === flight) this.flights.delete(key);
      }
    })();
    this.flights.set(key, flight);
    return flight;
  }

  /** The answer gzipped, made once per entry on first demand rather than once per request. */
  static gzipped(answer: CachedAnswer): Buffer {
    answer.gzip ??= gzipSync(answer.body, { level: 6 });
    return answer.gzip;
  }

  private store(key: string, answer: CachedAnswer) {
    const bytes = answer.body.length;
    if (bytes > this.maxBytes) return;
    this.remove(key);
    while (this.entries.size >= this.maxEntries || this.bytes + bytes > this.maxBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.remove(oldest.value);
    }
    this.entries.set(key, { ...answer, bytes, expires: this.now() + this.ttlMs });
    this.bytes += bytes;
  }

  private remove(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }

  /**
   * While suspended (changes cannot be heard of) every read loads afresh, still one load per key at a
   * time, and nothing is kept. Either way the cache is cleared.
   */
  suspend(suspended: boolean) {
    this.suspended = suspended;
    this.clear();
  }

  /** Forgets every answer, and makes loads already running answer without storing. */
  clear() {
    this.generation++;
    this.stats.clears++;
    this.entries.clear();
    this.flights.clear();
    this.bytes = 0;
  }

  /**
   * A part of answers cached the same way as answers (one mechanism for both): a listing's total and
   * facet counts are shared by its pages and sorts, so each is its own entry, held as JSON.
   */
  async value<T>(key: string, load: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const answer = await this.getOrLoad(`#${key}`, async (s) => JSON.stringify(await load(s)), signal);
    return JSON.parse(answer.body) as T;
  }
}

/** How many catalogue writes there have been (migration 0022's sequence; 0 before the first). */
export async function readCatalogueVersion(db: Database): Promise<string> {
  const [row] = await rowsOf<{ version: string }>(
    db,
    sql`select case when is_called then last_value else 0 end::text as version from catalogue_version`,
  );
  return row?.version ?? "0";
}

/**
 * The catalogue's version and the licence checks' (migration 0045's sequence), in one read: what an
 * instance that has just answered a write compares with what it last saw.
 */
export async function readCacheVersions(db: Database): Promise<{ catalogue: string; licenseCheck: string }> {
  const [row] = await rowsOf<{ catalogue: string; license_check: string }>(
    db,
    sql`select (select case when is_called then last_value else 0 end::text from catalogue_version) as catalogue,
      (select case when is_called then last_value else 0 end::text from license_check_version) as license_check`,
  );
  return { catalogue: row?.catalogue ?? "0", licenseCheck: row?.license_check ?? "0" };
}
