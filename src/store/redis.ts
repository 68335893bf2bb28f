import { RedisClient } from "bun";
import { createHash, randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { StoreUnavailableError } from "./busy";

/**
 * A command Redis has not answered in this long fails the call that waits for it (a 503, never a hang):
 * a Redis round trip on the same network is well under a millisecond (bench/scale-out.ts).
 */
const COMMAND_TIMEOUT_MS = 1000;
/** How often a lost connection is tried again: a node that lost Redis recovers within this of its return. */
const RECONNECT_MS = 500;

/** `answer`, or a rejection once COMMAND_TIMEOUT_MS has passed without one. */
async function bounded<T>(answer: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    // After the event loop's next I/O poll: an event loop held up past the timeout (a loaded machine) runs
    // timers before it reads the answer that came meanwhile, and would refuse a call Redis did answer.
    timer = setTimeout(() => setImmediate(() => reject(new Error(`no answer in ${COMMAND_TIMEOUT_MS} ms`))), COMMAND_TIMEOUT_MS);
  });
  try {
    return await Promise.race([answer, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export type MessageListener = (message: string) => void;

/** A Lua script run by EVALSHA, loaded by EVAL the first time a server (or a restarted one) lacks it. */
export class Script {
  readonly sha: string;
  constructor(readonly source: string) {
    this.sha = createHash("sha1").update(source).digest("hex");
  }
}

export interface RedisLog {
  warn(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
}

/**
 * svc's connection to Redis (`SVC_REDIS_URL`), with Bun's built-in client (no dependency: it has
 * scripting through `send`, pub/sub and auto-pipelining). Two connections: commands, and a subscriber
 * (a subscribed connection takes no other command). Commands never queue while the connection is down
 * (enableOfflineQueue off): they fail at once with StoreUnavailableError, and the callers refuse what
 * they cannot make correct (503). A timer reconnects both and subscribes again, then tells the
 * `onRecover` listeners, which catch up on what they missed (key changes, cache entries).
 *
 * Every key and channel is under `prefix:`, so several deployments (or tests) share one Redis.
 */
export class RedisLink {
  /** Why Redis cannot be used now, until it can again: what /health reports. */
  problem: string | undefined = "not connected yet";
  private client: RedisClient;
  private subscriber: RedisClient;
  private connecting: Promise<void> | undefined;
  private readonly channels = new Map<string, MessageListener>();
  private readonly recoverListeners: (() => void)[] = [];
  private readonly timer: ReturnType<typeof setInterval>;
  private closed = false;
  private readonly announcing = new Set<Promise<unknown>>();
  /** This process's name among the nodes: host, pid and a random part (a pid is reused, and is not unique across machines). */
  readonly node = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  /** Commands sent (a script is one): /metrics' svc_redis_commands_total, the benchmark's round trips per call. */
  sent = 0;

  constructor(
    private readonly url: string,
    readonly prefix: string,
    private readonly log: RedisLog,
  ) {
    this.client = this.newClient();
    this.subscriber = this.newClient();
    this.connecting = this.connect();
    this.timer = setInterval(() => {
      if (!this.connecting && (!this.client.connected || !this.subscriber.connected)) this.connecting = this.connect();
    }, RECONNECT_MS);
    this.timer.unref?.();
  }

  /** Settles once the first connection attempt is over, connected or not. */
  get ready(): Promise<void> {
    return this.connecting ?? Promise.resolve();
  }

  get healthy(): boolean {
    return this.problem === undefined;
  }

  key(...parts: string[]): string {
    return [this.prefix, ...parts].join(":");
  }

  async send(command: string, args: string[]): Promise<unknown> {
    if (this.connecting) await this.connecting;
    if (!this.client.connected) throw this.failed(this.problem ?? "not connected");
    this.sent++;
    try {
      const answer = await bounded(this.client.send(command, args));
      // A command that timed out on a connection still up: Redis answers again.
      if (this.problem !== undefined && this.subscriber.connected) this.problem = undefined;
      return answer;
    } catch (e) {
      const err = e as Error & { code?: string };
      // An error reply is about the command, not the connection.
      if (err.code === "ERR_REDIS_SERVER_ERROR") throw e;
      throw this.failed(err.message);
    }
  }

  /** EVALSHA, and EVAL when the server does not have the script (first use, or a restarted Redis). */
  async run(script: Script, keys: string[], args: (string | number)[]): Promise<unknown> {
    const rest = [String(keys.length), ...keys, ...args.map(String)];
    try {
      return await this.send("EVALSHA", [script.sha, ...rest]);
    } catch (e) {
      if (!String((e as Error).message).startsWith("NOSCRIPT")) throw e;
      return this.send("EVAL", [script.source, ...rest]);
    }
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.send("PUBLISH", [this.key(channel), message]);
  }

  /** Publishes without waiting; `close` waits for what is still on its way (a CLI command ends right after). */
  announce(channel: string, message: string): void {
    const sent = this.publish(channel, message).catch(() => undefined);
    this.announcing.add(sent);
    void sent.finally(() => this.announcing.delete(sent));
  }

  /** Listens to `channel` (under the prefix) now and again after every reconnection. */
  async subscribe(channel: string, listener: MessageListener): Promise<void> {
    this.channels.set(this.key(channel), listener);
    if (!this.subscriber.connected) return;
    try {
      await bounded(this.subscriber.subscribe(this.key(channel), (m) => listener(m)));
    } catch (e) {
      // The connection dropped or stalled under the request (a node starting as Redis goes away): the
      // channel is kept, and the reconnect timer subscribes it on a new connection, as after any loss.
      this.subscriber.close();
      this.failed((e as Error).message);
    }
  }

  /** Called after a lost connection came back (not after the first): what was published meanwhile is lost. */
  onRecover(listener: () => void): void {
    this.recoverListeners.push(listener);
  }

  async close(): Promise<void> {
    await Promise.all(this.announcing);
    this.closed = true;
    clearInterval(this.timer);
    this.client.close();
    this.subscriber.close();
  }

  private newClient(): RedisClient {
    return new RedisClient(this.url, { autoReconnect: false, enableOfflineQueue: false, connectionTimeout: COMMAND_TIMEOUT_MS });
  }

  private failed(reason: string): StoreUnavailableError {
    this.problem = `redis: ${reason}`;
    return new StoreUnavailableError(this.problem);
  }

  private async connect(): Promise<void> {
    const wasDown = this.problem !== "not connected yet";
    try {
      if (!this.client.connected) {
        this.client.close();
        this.client = this.newClient();
        await this.client.connect();
      }
      if (!this.subscriber.connected) {
        // A new subscriber: Bun's client keeps the old listeners but not the server's subscriptions.
        this.subscriber.close();
        this.subscriber = this.newClient();
        await this.subscriber.connect();
        for (const [channel, listener] of this.channels) await this.subscriber.subscribe(channel, (m) => listener(m));
      }
      if (this.closed) return;
      if (this.problem !== undefined) this.log.info({}, "redis: connected");
      this.problem = undefined;
      if (wasDown) for (const l of this.recoverListeners) l();
    } catch (e) {
      if (this.problem === undefined || this.problem === "not connected yet")
        this.log.warn({ err: { message: (e as Error).message } }, "redis: connection lost; calls that need it are refused until it returns");
      this.problem = `redis: ${(e as Error).message || "connection failed"}`;
    } finally {
      this.connecting = undefined;
    }
  }
}
