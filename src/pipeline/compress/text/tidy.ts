/**
 * Spacing and punctuation left behind when a rule removes words: "a  b", "a , b", ", ,", ",)", a
 * comma opening a line or a sentence. The pipeline runs it once, after the rules, on the lines they changed
 * (tidyChangedLines). Spaces before ! ? ; : are left alone: French typography puts them there on purpose.
 */
function tidyLine(text: string): string {
  return (
    text
      .replace(/(?<=\S)[ \t]{2,}(?=\S)/g, " ")
      .replace(/[ \t]+(?=[,.](?:\s|$))/g, "")
      .replace(/,(?:[ \t]*,)+/g, ",")
      // Nor before a colon or semicolon: "I want honest feedback, to be honest: does ..." left "feedback, : does"
      // (bench/data/compress-probe16.json).
      .replace(/,[ \t]*(?=[.!?](?:\s|$))/g, "")
      .replace(/,[ \t]*(?=[:;](?:\s|$))/g, "")
      // "(my husband thinks I'm mad, haha)" without its laughter (bench/data/chatty-dev-15.json).
      .replace(/,[ \t]*(?=\))/g, "")
      .replace(/(^[ \t]*|[.!?][ \t]+),[ \t]*/g, "$1")
  );
}

/**
 * tidyLine on each line of `text` that is not a line of `before` as it came: a line no rule touched is the
 * user's, often data the rules do not know as such ("COPY . /app" in a pasted Dockerfile lost its space
 * before the dot, compress12's outside-written check set chatty-dev-12).
 */
export function tidyChangedLines(text: string, before: string): string {
  const untouched = new Set(before.split("\n"));
  return text
    .split("\n")
    .map((line) => (untouched.has(line) ? line : tidyLine(line)))
    .join("\n");
}
