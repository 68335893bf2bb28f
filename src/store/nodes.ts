import type { Sql } from "postgres";
import type { SpendStore } from "./spend-store";

/** How often a node writes its heartbeat. */
export const HEARTBEAT_MS = 5_000;
/** A node whose heartbeat is this old is dead: six missed beats, so a slow store or a long pause is not taken for a death. */
export const DEAD_AFTER_MS = 30_000;
/** How often a node settles the reservations of dead nodes (a node killed and never restarted settles none itself). */
const SWEEP_MS = 30_000;
/** Heartbeat rows of nodes gone this long are deleted. */
const FORGET_AFTER_MS = 7 * 86_400_000;

/** The database's own clock in epoch milliseconds: every node compares heartbeats on one clock, whatever the skew between machines. */
const NOW_MS = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

/**
 * The nodes sharing one PostgreSQL store, by heartbeat. A node's reservations name it as owner
 * (`<node id>/<pid>`); when its heartbeat stops for DEAD_AFTER_MS, any other node settles them, as a
 * restarted process settles its predecessor's on SQLite (charged what the ledger recorded, else in full).
 */
export class NodeHeartbeat {
  private lastBeat = 0;
  private lastSweep = 0;
  private working: Promise<void> | undefined;

  constructor(
    private readonly sql: Sql,
    readonly owner: string,
    private readonly spend: SpendStore,
    private readonly onSettled: (reservations: number) => void,
  ) {}

  /** Writes this node's heartbeat now. */
  async beat(): Promise<void> {
    await this.sql.unsafe(
      `INSERT INTO nodes (owner, started_at, heartbeat_at) VALUES ($1, ${NOW_MS}, ${NOW_MS})
       ON CONFLICT (owner) DO UPDATE SET heartbeat_at = excluded.heartbeat_at`,
      [this.owner],
    );
    this.lastBeat = Date.now();
  }

  /** Owners whose heartbeat is fresh. */
  async liveOwners(): Promise<Set<string>> {
    const rows = await this.sql.unsafe<{ owner: string }[]>(`SELECT owner FROM nodes WHERE heartbeat_at > ${NOW_MS} - $1`, [DEAD_AFTER_MS]);
    return new Set(rows.map((r) => r.owner));
  }

  /**
   * At start, before serving: the heartbeat, then the reservations of dead nodes, this owner's own
   * included (a restarted container keeps its hostname and pid 1, and holds none yet).
   */
  async start(): Promise<number> {
    await this.beat();
    const live = await this.liveOwners();
    this.lastSweep = Date.now();
    return this.spend.settleOrphans((owner) => owner === this.owner || !live.has(owner), Date.now());
  }

  /** On the flush timer: the heartbeat when due, and a sweep of dead nodes' reservations when due. */
  tick(now = Date.now()): void {
    if (this.working || now - this.lastBeat < HEARTBEAT_MS) return;
    this.working = this.work(now)
      .catch(() => undefined)
      .finally(() => {
        this.working = undefined;
      });
  }

  private async work(now: number): Promise<void> {
    await this.beat();
    if (now - this.lastSweep < SWEEP_MS) return;
    this.lastSweep = now;
    const live = await this.liveOwners();
    const settled = await this.spend.settleOrphans((owner) => owner !== this.owner && !live.has(owner), now);
    if (settled > 0) this.onSettled(settled);
    await this.sql.unsafe(`DELETE FROM nodes WHERE heartbeat_at < ${NOW_MS} - $1`, [FORGET_AFTER_MS]);
  }
}
