/**
 * A value that satisfies a JSON Schema, made deterministically from a few words (the simulator's answer to
 * `json_schema` structured output and to tool calls). Covers what OpenAI's strict mode and tool schemas use:
 * object, array, string (enum, const, format, length), number/integer (bounds), boolean, null, anyOf/oneOf/
 * allOf, and local $ref into $defs/definitions.
 */
type Schema = Record<string, unknown>;

const MAX_DEPTH = 8;

export function schemaInstance(schema: unknown, words: readonly string[], root: unknown = schema, depth = 0): unknown {
  const s = (schema && typeof schema === "object" ? schema : {}) as Schema;
  if (depth > MAX_DEPTH) return null;
  if (typeof s.$ref === "string") return schemaInstance(resolveRef(root, s.$ref), words, root, depth + 1);
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = s[key];
    if (Array.isArray(options) && options.length > 0) {
      // Prefer a branch that is not null, so the answer carries something.
      const chosen = options.find((o) => (o as Schema)?.type !== "null") ?? options[0];
      return schemaInstance(chosen, words, root, depth + 1);
    }
  }
  if (Array.isArray(s.allOf)) return Object.assign({}, ...s.allOf.map((part) => schemaInstance(part, words, root, depth + 1)));
  const type = Array.isArray(s.type) ? (s.type.find((t) => t !== "null") ?? s.type[0]) : s.type;
  switch (type ?? (s.properties ? "object" : s.items ? "array" : "string")) {
    case "object": {
      const props = (s.properties ?? {}) as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      let i = 0;
      for (const [name, sub] of Object.entries(props)) out[name] = schemaInstance(sub, rotate(words, i++), root, depth + 1);
      return out;
    }
    case "array": {
      const count = Math.max(1, typeof s.minItems === "number" ? s.minItems : 1);
      const capped = typeof s.maxItems === "number" ? Math.min(count, s.maxItems) : count;
      return Array.from({ length: capped }, (_, i) => schemaInstance(s.items, rotate(words, i), root, depth + 1));
    }
    case "integer":
    case "number": {
      const min = typeof s.minimum === "number" ? s.minimum : typeof s.exclusiveMinimum === "number" ? s.exclusiveMinimum + 1 : 1;
      const max = typeof s.maximum === "number" ? s.maximum : typeof s.exclusiveMaximum === "number" ? s.exclusiveMaximum - 1 : Infinity;
      return Math.min(type === "integer" ? Math.ceil(min) : min, max);
    }
    case "boolean":
      return true;
    case "null":
      return null;
    default:
      return stringFor(s, words);
  }
}

function stringFor(s: Schema, words: readonly string[]): string {
  switch (s.format) {
    case "date-time":
      return "2024-01-01T00:00:00Z";
    case "date":
      return "2024-01-01";
    case "time":
      return "00:00:00";
    case "email":
      return "user@example.com";
    case "uri":
    case "url":
      return "https://example.com";
    case "uuid":
      return "00000000-0000-4000-8000-000000000000";
  }
  let text = words.slice(0, 3).join(" ") || "example";
  const min = typeof s.minLength === "number" ? s.minLength : 0;
  while (text.length < min) text += " example";
  if (typeof s.maxLength === "number") text = text.slice(0, s.maxLength);
  return text;
}

/** The words starting at position `by` (wrapping), so sibling values and variants differ. */
export function rotate(words: readonly string[], by: number): string[] {
  if (words.length === 0) return [];
  const k = by % words.length;
  return [...words.slice(k), ...words.slice(0, k)];
}

function resolveRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return {};
  let node: unknown = root;
  for (const part of ref.slice(1).split("/").filter(Boolean)) {
    node = (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return node ?? {};
}
