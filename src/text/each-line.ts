/**
 * Calls `visit` with the start of every line of `text` (after each "\n", found by indexOf) until it
 * returns false: the rules that read a line's first words go line by line, not token by token.
 */
export function eachLine(text: string, visit: (start: number) => boolean | void): void {
  for (let line = 0; line >= 0 && line < text.length; line = text.indexOf("\n", line) + 1 || -1) if (visit(line) === false) return;
}
