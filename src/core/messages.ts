/** An OpenAI chat message as the gateway carries it between stages and to providers. */
export type Role = "system" | "user" | "assistant" | "tool" | "developer";
export const ROLES: readonly Role[] = ["system", "user", "assistant", "tool", "developer"];

export interface ChatMessage {
  role: Role;
  /** The text of the message (its text parts joined by newlines): what the optimizer reads and rewrites. */
  content: string;
  /**
   * The client's content parts, kept only when some part is not text (an image, audio, a file). The
   * adapters send these, with the text parts standing for `content` (see providers/shared/content-parts).
   */
  parts?: ContentPart[];
  name?: string;
  tool_call_id?: string;
  tool_calls?: ToolCall[];
}

export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** An OpenAI content part: `{type: "text", text}`, `{type: "image_url", image_url: {url, detail?}}`, or another type passed on as sent. */
export interface ContentPart {
  type: string;
  text?: string;
  image_url?: { url: string; detail?: "auto" | "low" | "high" };
  [k: string]: unknown;
}
