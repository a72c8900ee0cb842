/**
 * What time the money jobs think it is. Production reads the system clock; a test server's clock can be
 * moved forward, so a journey can wait out a 14-day refund window in a second.
 */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };

export class AdjustableClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): Date {
    this.offsetMs += ms;
    return this.now();
  }
  /** Back to the system's time, so a journey that moved the clock leaves the next ones as they expect. */
  reset(): Date {
    this.offsetMs = 0;
    return this.now();
  }
}
