import { PII_TYPES, type PiiType } from "./types";

/** One masked value: `[TYPE_n]` stands for `value`. */
export interface MappingEntry {
  type: PiiType;
  n: number;
  value: string;
}

/**
 * The placeholders of one request or conversation. Numbers count up per type in the order values are
 * first seen and are never reused, so masking the same messages again (the next turn resends them)
 * gives the same placeholders byte for byte. Holds personal data: never log, cache or return it.
 */
export class PlaceholderMap {
  /**
   * Per type, each value's placeholder with its brackets: no key string is built per lookup (a
   * "type\0value" key made and hashed twice per new value, and the brackets added per call, were a
   * ninth of maskMessages' time on the pii-dense workload, ~50 values a message).
   */
  private readonly byValue = new Map<PiiType, Map<string, string>>();
  /** Each placeholder's value, made on the first valueOf (restoring the answer), not on every add while masking. */
  private byName: Map<string, string> | undefined;
  private readonly counters = new Map<PiiType, number>();
  private readonly list: MappingEntry[] = [];

  static from(entries: readonly MappingEntry[]): PlaceholderMap {
    const map = new PlaceholderMap();
    for (const e of entries) map.add(e);
    return map;
  }

  get size(): number {
    return this.list.length;
  }

  entries(): readonly MappingEntry[] {
    return this.list;
  }

  /**
   * `stored` with this map's entries added after it, for a conversation another process wrote to since
   * this call read it: a value `stored` already has keeps its stored placeholder, a new one keeps its own
   * name when that is free and otherwise gets its type's next number (the map was read before the
   * other process's turn, so both may have made the same name: the first writer keeps it).
   */
  static merge(stored: PlaceholderMap, ours: PlaceholderMap): PlaceholderMap {
    const out = PlaceholderMap.from(stored.entries());
    for (const e of ours.entries()) {
      if (out.byValue.get(e.type)?.has(e.value)) continue;
      if (out.valueOf(`${e.type}_${e.n}`) !== undefined) out.placeholderFor(e.type, e.value);
      else out.add(e);
    }
    return out;
  }

  /** The placeholder of `value`, made on first sight. */
  placeholderFor(type: PiiType, value: string): string {
    const known = this.byValue.get(type)?.get(value);
    if (known !== undefined) return known;
    const n = (this.counters.get(type) ?? 0) + 1;
    return `[${this.add({ type, n, value })}]`;
  }

  /** The value behind `TYPE_n` (upper case), or undefined for a placeholder this map never made. */
  valueOf(name: string): string | undefined {
    if (!this.byName) {
      this.byName = new Map();
      for (const e of this.list) this.byName.set(`${e.type}_${e.n}`, e.value);
    }
    return this.byName.get(name);
  }

  private add(e: MappingEntry): string {
    const name = `${e.type}_${e.n}`;
    let values = this.byValue.get(e.type);
    if (!values) this.byValue.set(e.type, (values = new Map()));
    values.set(e.value, `[${name}]`);
    this.byName?.set(name, e.value);
    this.counters.set(e.type, Math.max(this.counters.get(e.type) ?? 0, e.n));
    this.list.push(e);
    return name;
  }

  /** Keeps its contents out of any log line or error that serialises it by accident. */
  toJSON(): string {
    return `[PlaceholderMap: ${this.list.length} entries]`;
  }
}

/** Type names with their separators dropped ("URLCREDENTIALS"), for matching what a model wrote back. */
export const TYPE_BY_LETTERS: ReadonlyMap<string, PiiType> = new Map(PII_TYPES.map((t) => [t.replace(/_/g, ""), t]));
