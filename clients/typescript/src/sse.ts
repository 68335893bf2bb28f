/**
 * Server-Sent Events as the WHATWG spec reads them: lines end in \n, \r\n or \r (a \r\n split across
 * two network chunks is one line end), `data:` lines of one event join with \n, an event ends at a
 * blank line, `:` lines are comments. Bytes are decoded as a stream, so a character split across
 * chunks survives.
 */
export interface SseEvent {
  event: string;
  data: string;
}

export class SseParser {
  private readonly decoder = new TextDecoder();
  private buf = "";
  /** The previous chunk ended in \r: a \n opening the next one belongs to that line end. */
  private pendingCR = false;
  private data: string[] = [];
  private event = "";

  /** The events completed by this chunk of bytes. */
  push(bytes: Uint8Array): SseEvent[] {
    return this.lines(this.decoder.decode(bytes, { stream: true }));
  }

  /** The events completed by the end of the stream (an unterminated last event is dropped, as the spec says). */
  end(): SseEvent[] {
    return this.lines(this.decoder.decode());
  }

  private lines(text: string): SseEvent[] {
    if (this.pendingCR && text.startsWith("\n")) text = text.slice(1);
    this.pendingCR = false;
    this.buf += text;
    const out: SseEvent[] = [];
    let start = 0;
    for (let i = 0; i < this.buf.length; i++) {
      const c = this.buf.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      this.line(this.buf.slice(start, i), out);
      if (c === 13) {
        if (i + 1 === this.buf.length) this.pendingCR = true;
        else if (this.buf.charCodeAt(i + 1) === 10) i++;
      }
      start = i + 1;
    }
    this.buf = this.buf.slice(start);
    return out;
  }

  private line(line: string, out: SseEvent[]): void {
    if (line === "") {
      if (this.data.length > 0) out.push({ event: this.event || "message", data: this.data.join("\n") });
      this.data = [];
      this.event = "";
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
  }
}
