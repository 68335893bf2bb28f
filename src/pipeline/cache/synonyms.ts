/** Shape of an operator's synonym file (SVC_CACHE_SYNONYMS_FILE). */
export interface SynonymFile {
  description: string;
  source: string;
  /**
   * Each group is the space-separated stems of words that share a meaning, optionally followed by
   * " | " and the stems of which both prompts must share one for the group to apply ("chang updat |
   * email password": "change my email" / "update my email", not "change the tyre" / "update the tyre").
   */
  groups: string[];
}

/** A group's context: the stems of which both prompts must share one. */
type Context = readonly string[] | null;

/**
 * Which content-word stems (as `PromptFacets.content` keys them) mean the same: "couch" / "sofa",
 * "permit" / "allow". The verifier's word vectors know spellings only; this knows meanings. Two
 * stems are synonyms when they share a group (whose context, when it has one, both prompts share);
 * a stem is in a few groups at most, so a lookup is two map reads and a merge of two short sorted lists.
 */
export class SynonymTable {
  private readonly groupsOf = new Map<string, number[]>();
  private readonly contexts: Context[] = [];

  constructor(groups: readonly string[]) {
    groups.forEach((group, id) => {
      const [words, context] = group.split(" | ") as [string, string | undefined];
      this.contexts.push(context === undefined ? null : context.split(" "));
      for (const stem of words.split(" ")) {
        const ids = this.groupsOf.get(stem);
        if (ids) ids.push(id);
        else this.groupsOf.set(stem, [id]);
      }
    });
  }

  /** Reads a synonym file's text; `source` names it in the error when the text is not one. */
  static parse(text: string, source: string): SynonymTable {
    return new SynonymTable(SynonymTable.parseGroups(text, source));
  }

  /** A synonym file's groups, checked; `source` names it in the error when the text is not one. */
  static parseGroups(text: string, source: string): string[] {
    let file: unknown;
    try {
      file = JSON.parse(text);
    } catch (err) {
      throw new Error(`${source}: not JSON (${(err as Error).message})`);
    }
    const groups = (file as Partial<SynonymFile> | null)?.groups;
    if (!Array.isArray(groups) || !groups.every((g) => typeof g === "string" && /^[^\s|]+( [^\s|]+)+( \| [^\s|]+( [^\s|]+)*)?$/.test(g))) {
      throw new Error(`${source}: expected { groups: string[] } with two or more space-separated stems per group, then optionally " | " and context stems`);
    }
    return groups;
  }

  /** How many stems have a synonym. */
  get size(): number {
    return this.groupsOf.size;
  }

  /** Whether `a` and `b` share a group; `shared` says which stems both prompts have, for groups with a context (without it those never apply). */
  areSynonyms(a: string, b: string, shared?: (stem: string) => boolean): boolean {
    const x = this.groupsOf.get(a);
    const y = x && this.groupsOf.get(b);
    if (!y) return false;
    // Group ids were pushed in increasing order, so both lists are sorted.
    for (let i = 0, j = 0; i < x.length && j < y.length; ) {
      if (x[i] === y[j]) {
        const context = this.contexts[x[i]!];
        if (!context || (shared !== undefined && context.some(shared))) return true;
        i++;
        j++;
      } else if (x[i]! < y[j]!) i++;
      else j++;
    }
    return false;
  }
}
