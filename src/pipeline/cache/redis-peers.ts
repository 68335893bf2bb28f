import { StoreUnavailableError } from "../../store/busy";
import { Script, type RedisLink } from "../../store/redis";
import type { CacheLog, CacheRow } from "./persistence";
import type { CachePeers, SemanticCache } from "./semantic-cache";

/** Entries kept in the stream for nodes that reconnect or start: a few minutes of fills at a busy node's rate. */
const STREAM_MAX = 10_000;
/** A starting node loaded the store's rows; the stream gives it what other nodes filled since (their writes lag 25 ms). */
const START_CATCH_UP_MS = 60_000;

/**
 * KEYS[1] stream, KEYS[2] this key's lock; ARGV node, row JSON, channel, stream length. One round
 * trip: the entry goes into the stream (for nodes that catch up later) and to every node subscribed
 * now, and the node's claim on the key ends.
 */
const SHARE = new Script(`local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[4], '*', 'node', ARGV[1], 'row', ARGV[2])
redis.call('PUBLISH', ARGV[3], 'e\\n' .. id .. '\\n' .. ARGV[1] .. '\\n' .. ARGV[2])
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
return id`);

/** KEYS[1] lock; ARGV node, channel, exact key. Ends this node's claim (only its own) and tells the waiting nodes. */
const RELEASE = new Script(`if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  redis.call('PUBLISH', ARGV[2], 'r\\n0\\n' .. ARGV[1] .. '\\n' .. ARGV[3])
end
return 0`);

/** KEYS[1] lock; ARGV node, lease ms. Extends this node's claim (only its own): 1, or 0 when it is not held by this node. */
const RENEW = new Script(`if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
return redis.call('PEXPIRE', KEYS[1], ARGV[2])`);

/**
 * How long a node's claim on a key lasts unless renewed: renewed every third of it while the node's
 * upstream call runs, so a waiting node finds the claim gone within this (and half of it between its
 * checks) of the leader's death, rather than after the 30 s coalescing timeout. Long enough to outlast
 * an event loop held up for a second on a loaded machine (a lapse there only costs a second upstream call).
 */
export const COALESCE_LEASE_MS = 3_000;

/**
 * The semantic cache's entries shared by every node through Redis. A node's new entry is added to a
 * capped stream and published in one script; every other node files it in its own memory and usearch
 * index (`SemanticCache.receive`). A node that starts, or gets Redis back, reads the stream from where
 * it was. Identical misses on different nodes: the first claims the key (SET NX, a short lease it renews
 * while its call runs); the others wait for its entry or its release, and when the claim lapses (the
 * node died) one of them claims the key and calls upstream, the rest waiting for it in turn.
 * Without Redis every node serves from its own entries (and the shared store's at start): fewer hits,
 * never a wrong one.
 */
export class RedisCachePeers implements CachePeers {
  /** The last stream entry seen: where a reconnection catches up from. */
  private lastId: string;

  constructor(
    private readonly redis: RedisLink,
    private readonly cache: SemanticCache,
    /** This node's name in the stream and the locks. */
    private readonly node: string,
    private readonly leaseMs: number,
    private readonly log: CacheLog,
  ) {
    this.lastId = `${Date.now() - START_CATCH_UP_MS}-0`;
  }

  async start(): Promise<void> {
    await this.redis.subscribe("cache", (m) => this.onMessage(m));
    this.redis.onRecover(() => void this.catchUp());
    await this.catchUp();
    this.cache.connect(this);
  }

  async lead(exactKey: string): Promise<boolean> {
    try {
      return (await this.redis.send("SET", [this.redis.key("coalesce", exactKey), this.node, "NX", "PX", String(this.leaseMs)])) === "OK";
    } catch {
      // Redis is away: this node calls upstream itself, as it would alone.
      return true;
    }
  }

  share(row: CacheRow): void {
    const args = [this.node, JSON.stringify(row), this.redis.key("cache"), STREAM_MAX];
    this.redis.run(SHARE, [this.redis.key("cache-stream"), this.redis.key("coalesce", row.exactKey)], args).catch((e: Error) => this.lost(e));
  }

  hold(exactKey: string): () => void {
    const key = this.redis.key("coalesce", exactKey);
    const timer = setInterval(() => {
      this.redis.run(RENEW, [key], [this.node, this.leaseMs]).catch((e: Error) => this.lost(e));
    }, this.leaseMs / 3);
    timer.unref?.();
    return () => clearInterval(timer);
  }

  watch(exactKey: string, lapsed: () => void): () => void {
    const key = this.redis.key("coalesce", exactKey);
    const timer = setInterval(() => {
      // Redis away: the claim cannot be seen, so the waiter keeps waiting (up to the coalescing timeout).
      this.redis.send("EXISTS", [key]).then(
        (n) => n === 0 && lapsed(),
        () => undefined,
      );
    }, this.leaseMs / 2);
    timer.unref?.();
    return () => clearInterval(timer);
  }

  release(exactKey: string): void {
    this.redis.run(RELEASE, [this.redis.key("coalesce", exactKey)], [this.node, this.redis.key("cache"), exactKey]).catch((e: Error) => this.lost(e));
  }

  private onMessage(message: string): void {
    const [kind, id, node] = message.split("\n", 3) as [string, string, string];
    if (node === this.node) return;
    const body = message.slice(kind.length + id.length + node.length + 3);
    if (kind === "r") this.cache.released(body);
    else {
      this.lastId = id;
      this.receive(body);
    }
  }

  private receive(json: string): void {
    try {
      this.cache.receive(JSON.parse(json) as CacheRow);
    } catch (e) {
      this.log.warn({ err: (e as Error).message }, "semantic cache: an entry from another node was refused");
    }
  }

  private async catchUp(): Promise<void> {
    try {
      const entries = (await this.redis.send("XRANGE", [this.redis.key("cache-stream"), `(${this.lastId}`, "+"])) as [string, string[]][];
      for (const [id, fields] of entries) {
        this.lastId = id;
        const f = Object.fromEntries(Array.from({ length: fields.length / 2 }, (_, i) => [fields[2 * i], fields[2 * i + 1]]));
        if (f.node !== this.node) this.receive(f.row!);
      }
    } catch (e) {
      this.lost(e as Error);
    }
  }

  private lost(e: Error): void {
    // A lost connection is /health's and RedisLink's to report, not once per cache fill.
    if (e instanceof StoreUnavailableError) return;
    this.log.warn({ err: e.message }, "semantic cache: sharing with the other nodes failed (Redis); this node keeps its own entries");
  }
}
