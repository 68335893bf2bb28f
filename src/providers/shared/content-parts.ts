import type { ChatMessage, ContentPart } from "../../core/messages";

/**
 * The parts of a message with non-text parts, as they go upstream. The optimizer only ever sees and
 * rewrites `content`, the text parts joined by newlines; when it left that text as it was the client's
 * parts go unchanged, and when it rewrote it the rewritten text takes the place of the first text part
 * (images and other parts keep their order), so no non-text part is ever compressed or dropped.
 */
export function wireParts(m: ChatMessage): ContentPart[] | undefined {
  if (!m.parts) return undefined;
  const texts = m.parts.filter((p) => p.type === "text");
  if (texts.map((p) => p.text ?? "").join("\n") === m.content) return m.parts;
  const out: ContentPart[] = [];
  let placed = false;
  for (const p of m.parts) {
    if (p.type !== "text") out.push(p);
    else if (!placed) {
      placed = true;
      if (m.content.length > 0) out.push({ type: "text", text: m.content });
    }
  }
  if (!placed && m.content.length > 0) out.unshift({ type: "text", text: m.content });
  return out;
}

/** An image reference read from an OpenAI image_url part: inline base64 data or a URL. */
export type ImageSource = { kind: "base64"; mediaType: string; data: string } | { kind: "url"; url: string };

export function imageSource(part: ContentPart): ImageSource | undefined {
  const url = part.image_url?.url;
  if (typeof url !== "string") return undefined;
  const inline = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (inline) return { kind: "base64", mediaType: inline[1]!, data: inline[2]! };
  return { kind: "url", url };
}
