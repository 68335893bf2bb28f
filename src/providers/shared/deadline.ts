/**
 * A timeout that can be pushed back, joined with the caller's own abort signal. Its signal aborts
 * with a TimeoutError once `ms` pass without `extend()`, so a stream can be bounded by its longest
 * silence rather than by its total length, and with the caller's reason when the caller aborts.
 *
 * One controller that listens to the caller, rather than `AbortSignal.any([caller, timeout])`: in
 * Bun a composite signal handed to fetch costs about 11 µs of CPU per call (measured against a
 * plain controller's signal in a relay under load), a tenth of what the whole relay may add.
 */
export class Deadline {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private expiredFlag = false;
  private readonly onCallerAbort: () => void;

  constructor(
    readonly ms: number,
    private readonly caller?: AbortSignal,
  ) {
    this.onCallerAbort = () => {
      clearTimeout(this.timer);
      this.controller.abort(caller?.reason);
    };
    if (caller?.aborted) this.onCallerAbort();
    else {
      caller?.addEventListener("abort", this.onCallerAbort, { once: true });
      this.arm();
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get expired(): boolean {
    return this.expiredFlag;
  }

  extend(): void {
    if (this.expiredFlag || this.controller.signal.aborted) return;
    clearTimeout(this.timer);
    this.arm();
  }

  /** Stops the clock and lets go of the caller's signal; call when the exchange is over. */
  clear(): void {
    clearTimeout(this.timer);
    this.caller?.removeEventListener("abort", this.onCallerAbort);
  }

  private arm(): void {
    this.timer = setTimeout(() => {
      this.expiredFlag = true;
      this.controller.abort(new DOMException(`no answer within ${this.ms} ms`, "TimeoutError"));
    }, this.ms);
  }
}
