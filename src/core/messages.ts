/** An OpenAI chat message as the gateway carries it between stages and to providers. */
export type Role = "system" | "user" | "assistant" | "tool" | "developer";
export const ROLES: readonly Role[] = ["system", "user", "assistant", "tool", "developer"];

export interface ChatMessage {
  role: Role;
  content: string;
  name?: string;
  tool_call_id?: string;
  tool_calls?: ToolCall[];
}

export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}
