/**
 * Spacing and punctuation left behind when a rule removes words: "a  b", "a , b", ", ,", ",)", a
 * comma opening a sentence. The pipeline runs it once, after the rules, on a message they changed. Spaces before
 * ! ? ; : are left alone: French typography puts them there on purpose.
 */
export function tidyRemovals(text: string): string {
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
      .replace(/(^|[.!?][ \t]+|\n[ \t]*),[ \t]*/g, "$1")
  );
}
