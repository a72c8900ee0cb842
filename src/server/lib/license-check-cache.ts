/**
 * What the public licence check reads from the database, kept in memory per key on this instance
 * (decision 0028): the licence, its subscription, its seats in use and a capped subscription's use in a
 * period. The check's answer is still worked out at each call from these and the time, so a trial, a
 * paid period or a grace that ends shows at once; what the database holds is forgotten whole when a
 * table it came from changes, here or on another instance (migration 0045's notice, heard through the
 * catalogue's listener), and nothing is kept while that notice cannot be heard.
 */
export class LicenseCheckCache<T> {
  private readonly entries = new Map<string, T>();
  private generation = 0;
  private suspended = false;
  private readonly maxEntries: number;
  readonly stats = { hits: 0, misses: 0, clears: 0 };

  constructor(options: { maxEntries?: number } = {}) {
    this.maxEntries = options.maxEntries ?? 100_000;
  }

  get size() {
    return this.entries.size;
  }

  /**
   * The entry of `key`, or what `load` reads (kept unless a change was heard while it read, or it answers
   * undefined). A load started before a clear is never kept: it may have read the state before the change.
   */
  async get(key: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
    if (!this.suspended) {
      const hit = this.entries.get(key);
      if (hit !== undefined) {
        this.stats.hits++;
        return hit;
      }
    }
    this.stats.misses++;
    const generation = this.generation;
    const value = await load();
    if (value !== undefined && generation === this.generation && !this.suspended) {
      // Bounded: forgotten whole when full, as the keys of a flood of distinct licences are worth little.
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(key, value);
    }
    return value;
  }

  /** Forgets every entry, and keeps loads already running from storing what they read. */
  clear(): void {
    this.generation++;
    this.stats.clears++;
    this.entries.clear();
  }

  /** While the notice of changes cannot be heard, keeps nothing (and forgets what it had). */
  suspend(suspended: boolean): void {
    this.suspended = suspended;
    this.clear();
  }
}
