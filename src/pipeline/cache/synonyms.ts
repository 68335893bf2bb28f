/** Shape of an operator's synonym file (SVC_CACHE_SYNONYMS_FILE). */
export interface SynonymFile {
  description: string;
  source: string;
  /** Each group is the space-separated stems of words that share a meaning. */
  groups: string[];
}

/**
 * Which content-word stems (as `PromptFacets.content` keys them) mean the same: "couch" / "sofa",
 * "permit" / "allow". The verifier's word vectors know spellings only; this knows meanings. Two
 * stems are synonyms when they share a group; a stem is in a few groups at most, so a lookup is two
 * map reads and a merge of two short sorted lists.
 */
export class SynonymTable {
  private readonly groupsOf = new Map<string, number[]>();

  constructor(groups: readonly string[]) {
    groups.forEach((group, id) => {
      for (const stem of group.split(" ")) {
        const ids = this.groupsOf.get(stem);
        if (ids) ids.push(id);
        else this.groupsOf.set(stem, [id]);
      }
    });
  }

  /** Reads a synonym file's text; `source` names it in the error when the text is not one. */
  static parse(text: string, source: string): SynonymTable {
    let file: unknown;
    try {
      file = JSON.parse(text);
    } catch (err) {
      throw new Error(`${source}: not JSON (${(err as Error).message})`);
    }
    const groups = (file as Partial<SynonymFile> | null)?.groups;
    if (!Array.isArray(groups) || !groups.every((g) => typeof g === "string" && /^\S+( \S+)+$/.test(g))) {
      throw new Error(`${source}: expected { groups: string[] } with two or more space-separated stems per group`);
    }
    return new SynonymTable(groups);
  }

  /** How many stems have a synonym. */
  get size(): number {
    return this.groupsOf.size;
  }

  areSynonyms(a: string, b: string): boolean {
    const x = this.groupsOf.get(a);
    const y = x && this.groupsOf.get(b);
    if (!y) return false;
    // Group ids were pushed in increasing order, so both lists are sorted.
    for (let i = 0, j = 0; i < x.length && j < y.length; ) {
      if (x[i] === y[j]) return true;
      if (x[i]! < y[j]!) i++;
      else j++;
    }
    return false;
  }
}
