import type { ChatMessage, ContentPart } from "../../core/messages";
import { mergeConsecutive } from "../shared/merge-consecutive";
import { functionTools, stopList, toolArguments, toolChoice } from "../shared/openai-tools";
import { imageSource, wireParts } from "../shared/content-parts";
import { refuseUnmapped, thinkingBudget } from "../shared/extra-params";
import { ProviderError } from "../types";
import type { ProviderRequest } from "../types";

export interface GeminiPart {
  text?: string;
  inlineData?: { mimeType: string; data: string };
  /** Set on reasoning summaries, which are not part of the answer. */
  thought?: boolean;
  functionCall?: { id?: string; name: string; args?: Record<string, unknown> };
  functionResponse?: { name: string; response: Record<string, unknown> };
}

export interface GeminiContent {
  role: "user" | "model";
  parts: GeminiPart[];
}

/** The body of generateContent / streamGenerateContent. */
export interface GeminiRequest {
  contents: GeminiContent[];
  systemInstruction?: { parts: { text: string }[] };
  generationConfig: {
    maxOutputTokens: number;
    temperature?: number;
    topP?: number;
    stopSequences?: string[];
    candidateCount?: number;
    presencePenalty?: number;
    frequencyPenalty?: number;
    seed?: number;
    responseMimeType?: string;
    thinkingConfig?: { thinkingBudget: number };
  };
  tools?: { functionDeclarations: { name: string; description?: string; parameters?: Record<string, unknown> }[] }[];
  toolConfig?: { functionCallingConfig: { mode: "AUTO" | "ANY" | "NONE"; allowedFunctionNames?: string[] } };
}

const NAME = "gemini";
/** OpenAI fields this adapter maps; every other extra field must be one that changes nothing (extra-params). */
const MAPPED = new Set(["reasoning_effort"]);

/** Maps an OpenAI-shaped request to Gemini's. `user` has no Gemini equivalent and is dropped. */
export function toGeminiRequest(req: ProviderRequest): GeminiRequest {
  const p = req.params;
  refuseUnmapped(p.extra, MAPPED, NAME);
  const system = req.messages
    .filter((m) => m.role === "system" || m.role === "developer")
    .map((m) => m.content)
    .filter((text) => text.length > 0);
  const toolNames = new Map<string, string>();
  for (const m of req.messages) for (const call of m.tool_calls ?? []) toolNames.set(call.id, call.function.name);
  const turns = req.messages.filter((m) => m.role !== "system" && m.role !== "developer").map((m) => toGeminiContent(m, toolNames));
  const body: GeminiRequest = {
    contents: mergeConsecutive(
      turns.filter((c) => c.parts.length > 0),
      (a, b) => a.role === b.role,
      (a, b) => ({ role: a.role, parts: [...a.parts, ...b.parts] }),
    ),
    generationConfig: { maxOutputTokens: req.max_tokens },
  };
  if (system.length > 0) body.systemInstruction = { parts: [{ text: system.join("\n\n") }] };
  const g = body.generationConfig;
  if (p.temperature !== undefined) g.temperature = p.temperature;
  if (p.top_p !== undefined) g.topP = p.top_p;
  const stops = stopList(p.stop);
  if (stops) g.stopSequences = stops;
  if (p.n !== undefined) g.candidateCount = p.n;
  if (p.presence_penalty !== undefined) g.presencePenalty = p.presence_penalty;
  if (p.frequency_penalty !== undefined) g.frequencyPenalty = p.frequency_penalty;
  if (p.seed !== undefined) g.seed = p.seed;
  if (p.response_format?.type === "json_object" || p.response_format?.type === "json_schema") g.responseMimeType = "application/json";
  if (p.extra?.reasoning_effort !== undefined) g.thinkingConfig = { thinkingBudget: thinkingBudget(p.extra.reasoning_effort, NAME) };
  if (p.tools?.length) body.tools = [{ functionDeclarations: functionTools(p.tools, NAME) }];
  if (p.tool_choice !== undefined) {
    const choice = toolChoice(p.tool_choice, NAME);
    body.toolConfig = {
      functionCallingConfig:
        choice.mode === "function"
          ? { mode: "ANY", allowedFunctionNames: [choice.name] }
          : { mode: choice.mode === "required" ? "ANY" : choice.mode === "none" ? "NONE" : "AUTO" },
    };
  }
  return body;
}

function toGeminiContent(m: ChatMessage, toolNames: ReadonlyMap<string, string>): GeminiContent {
  if (m.role === "tool") {
    const name = toolNames.get(m.tool_call_id ?? "") ?? m.name ?? "tool";
    return { role: "user", parts: [{ functionResponse: { name, response: { content: m.content } } }] };
  }
  const sent = wireParts(m);
  const parts: GeminiPart[] = sent ? sent.map(toGeminiPart) : m.content.length > 0 ? [{ text: m.content }] : [];
  for (const call of m.tool_calls ?? []) parts.push({ functionCall: { name: call.function.name, args: toolArguments(call.function.arguments, NAME) } });
  return { role: m.role === "assistant" ? "model" : "user", parts };
}

function toGeminiPart(part: ContentPart): GeminiPart {
  if (part.type === "text") return { text: part.text ?? "" };
  const image = part.type === "image_url" ? imageSource(part) : undefined;
  if (image?.kind === "base64") return { inlineData: { mimeType: image.mediaType, data: image.data } };
  // Gemini reads images inline or from its own File API, not from arbitrary URLs.
  const what = image ? "image URLs other than data: URLs" : `content parts of type '${part.type}'`;
  throw new ProviderError("unsupported", `${NAME} cannot take ${what}`, undefined, undefined, "messages.content");
}
