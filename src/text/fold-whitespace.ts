/** Whether UTF-16 unit `c` is one of /\s/ (ECMAScript WhiteSpace and LineTerminator), the set trim() removes too. */
export function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/**
 * `text.replace(/\s+/g, " ").trim()`: its words joined by single spaces. A char-code scan that slices
 * only where a gap is not already one plain space, and returns `text` itself when nothing is to fold:
 * the regex replace took 8.6-10.9 µs on a ~300-token workload prompt, this 3.5-3.8 µs (bench/lib/workload, 2,000
 * prompts), and every optimized request folds its prompt for the embedding and the classifier
 * (embeddingText, else lastUserText).
 */
export function foldWhitespace(text: string): string {
  const n = text.length;
  let i = 0;
  while (i < n && isSpace(text.charCodeAt(i))) i++;
  // Runs of words already separated by single plain spaces, copied whole.
  const runs: string[] = [];
  let run = i;
  let end = i;
  while (i < n) {
    while (i < n && !isSpace(text.charCodeAt(i))) i++;
    end = i;
    while (i < n && isSpace(text.charCodeAt(i))) i++;
    if (i === n || (i === end + 1 && text.charCodeAt(end) === 32)) continue;
    runs.push(text.slice(run, end));
    run = i;
  }
  if (runs.length === 0) return run === 0 && end === n ? text : text.slice(run, end);
  runs.push(text.slice(run, end));
  return runs.join(" ");
}
