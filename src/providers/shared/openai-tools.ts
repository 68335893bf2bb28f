import { ProviderError } from "../types";

/** A function tool as OpenAI clients declare it, read out of `tools[]`. */
export interface FunctionTool {
  name: string;
  description?: string;
  /** JSON Schema of the arguments. */
  parameters?: Record<string, unknown>;
}

/** OpenAI's `tool_choice`, reduced to what every wire format can say. */
export type ToolChoice = { mode: "auto" } | { mode: "none" } | { mode: "required" } | { mode: "function"; name: string };

/** Reads OpenAI `tools[]`; anything but well-formed function tools is refused before any call is made. */
export function functionTools(tools: readonly unknown[], provider: string): FunctionTool[] {
  return tools.map((tool, i) => {
    const t = tool as { type?: unknown; function?: { name?: unknown; description?: unknown; parameters?: unknown } } | null;
    if (t?.type !== "function" || typeof t.function?.name !== "string") {
      throw new ProviderError("unsupported", `${provider} accepts only function tools; tools[${i}] is not one`);
    }
    const out: FunctionTool = { name: t.function.name };
    if (typeof t.function.description === "string") out.description = t.function.description;
    if (t.function.parameters && typeof t.function.parameters === "object") out.parameters = t.function.parameters as Record<string, unknown>;
    return out;
  });
}

export function toolChoice(choice: unknown, provider: string): ToolChoice {
  if (choice === "auto" || choice === "none" || choice === "required") return { mode: choice };
  const named = (choice as { type?: unknown; function?: { name?: unknown } } | null)?.function?.name;
  if (typeof named === "string") return { mode: "function", name: named };
  throw new ProviderError("unsupported", `${provider} cannot express tool_choice ${JSON.stringify(choice)}`);
}

/** The arguments of an assistant tool call as an object; wire formats other than OpenAI's carry them parsed. */
export function toolArguments(json: string, provider: string): Record<string, unknown> {
  if (json.trim() === "") return {};
  try {
    const parsed: unknown = JSON.parse(json);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // Reported below with the same message as a non-object.
  }
  throw new ProviderError("unsupported", `${provider} needs tool call arguments that are a JSON object`);
}

export function stopList(stop: string | string[] | undefined): string[] | undefined {
  if (stop === undefined) return undefined;
  return typeof stop === "string" ? [stop] : stop;
}
