/**
 * A timeout that can be pushed back. Its signal aborts with a TimeoutError once `ms` pass without
 * `extend()`, so a stream can be bounded by its longest silence rather than by its total length.
 */
export class Deadline {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private expiredFlag = false;

  constructor(readonly ms: number) {
    this.arm();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get expired(): boolean {
    return this.expiredFlag;
  }

  extend(): void {
    if (this.expiredFlag) return;
    clearTimeout(this.timer);
    this.arm();
  }

  clear(): void {
    clearTimeout(this.timer);
  }

  private arm(): void {
    this.timer = setTimeout(() => {
      this.expiredFlag = true;
      this.controller.abort(new DOMException(`no answer within ${this.ms} ms`, "TimeoutError"));
    }, this.ms);
  }
}
