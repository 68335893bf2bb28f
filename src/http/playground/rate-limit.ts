import { ApiError } from "../../core/errors";

/**
 * A fixed one-minute window per client address, for the unauthenticated playground. Windows of
 * addresses not seen for a minute are dropped, so memory stays bounded by recent clients.
 */
export class PerClientLimit {
  private windows = new Map<string, { start: number; count: number }>();
  private lastSweep = 0;

  constructor(private readonly perMinute: number) {}

  take(client: string, now: number): void {
    if (now - this.lastSweep > 60_000) this.sweep(now);
    let w = this.windows.get(client);
    if (!w || now - w.start >= 60_000) {
      w = { start: now, count: 0 };
      this.windows.set(client, w);
    }
    if (w.count >= this.perMinute) {
      throw new ApiError("RATE_LIMITED", `the playground allows ${this.perMinute} calls per minute per client`, {
        retryAfterS: (w.start + 60_000 - now) / 1000,
      });
    }
    w.count++;
  }

  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [k, w] of this.windows) if (now - w.start >= 60_000) this.windows.delete(k);
  }
}
