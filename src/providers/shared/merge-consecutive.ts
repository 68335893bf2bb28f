/**
 * Joins runs of neighbouring items that belong together into one item, in order. Anthropic and Gemini
 * reject (or misread) two messages of the same role in a row, which OpenAI-style histories often have.
 */
export function mergeConsecutive<T>(items: readonly T[], together: (a: T, b: T) => boolean, merge: (a: T, b: T) => T): T[] {
  const out: T[] = [];
  for (const item of items) {
    const last = out.at(-1);
    if (last !== undefined && together(last, item)) out[out.length - 1] = merge(last, item);
    else out.push(item);
  }
  return out;
}
