import type { Catalog } from "../../catalog/catalog";
import type { ToolCall } from "../../core/messages";
import { countMessageTokens, countTokens, tokenizerFor, type TokenizerFamily } from "../../tokens/count";
import { functionTools, toolChoice, type FunctionTool } from "../shared/openai-tools";
import { ProviderError, type Choice, type FinishReason, type Provider, type ProviderRequest, type ProviderResponse, type StreamEvent } from "../types";
import { fnv1a, simulatedAnswer, STOPWORDS, topicWords } from "./answer";
import { rotate, schemaInstance } from "./schema-instance";

export const SIMULATED_NAME = "simulated";

/** One made-up choice: text, or tool calls, and why it ended. */
interface Planned {
  text: string;
  toolCalls?: ToolCall[];
  finish: FinishReason;
}

/**
 * Answers every catalog model locally when no provider key is configured, so the gateway runs out of the
 * box, agents and structured-output code included. Deterministic: the same request always gets the same
 * answer. With tools offered it calls the one whose name and description best match the question (with
 * arguments valid for its schema) unless the conversation already ends in a tool result, which it then
 * answers in text, so a tool loop ends; `response_format` gets a JSON object (one valid for the
 * json_schema when given); `n` gets n differing choices. Token counts use the model's real tokenizer so
 * costs and savings stay meaningful.
 */
export class SimulatedProvider implements Provider {
  readonly name = SIMULATED_NAME;
  readonly simulated = true;

  constructor(private readonly catalog: Catalog) {}

  async complete(req: ProviderRequest): Promise<ProviderResponse> {
    this.checkAborted(req);
    const family = this.family(req.model);
    const plans = this.plan(req, family);
    const choices: Choice[] = plans.map((p, index) => {
      const message: Choice["message"] = { role: "assistant", content: p.toolCalls ? null : p.text };
      if (p.toolCalls) message.tool_calls = p.toolCalls;
      return { index, message, finish_reason: p.finish };
    });
    return { choices, usage: this.usage(req, plans, family) };
  }

  async *stream(req: ProviderRequest): AsyncGenerator<StreamEvent> {
    const family = this.family(req.model);
    const plans = this.plan(req, family);
    for (const [index, p] of plans.entries()) {
      yield { kind: "delta", delta: { index, delta: { role: "assistant" }, finish_reason: null } };
      for (const [i, call] of (p.toolCalls ?? []).entries()) {
        yield {
          kind: "delta",
          delta: {
            index,
            delta: { tool_calls: [{ index: i, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }] },
            finish_reason: null,
          },
        };
        for (const piece of pieces(call.function.arguments)) {
          this.checkAborted(req);
          yield { kind: "delta", delta: { index, delta: { tool_calls: [{ index: i, function: { arguments: piece } }] }, finish_reason: null } };
        }
      }
      if (!p.toolCalls) {
        for (const word of p.text.match(/\S+\s*/g) ?? []) {
          this.checkAborted(req);
          yield { kind: "delta", delta: { index, delta: { content: word }, finish_reason: null } };
        }
      }
      yield { kind: "delta", delta: { index, delta: {}, finish_reason: p.finish } };
    }
    yield { kind: "usage", usage: this.usage(req, plans, family) };
  }

  private usage(req: ProviderRequest, plans: readonly Planned[], family: TokenizerFamily) {
    let completion = 0;
    for (const p of plans) completion += countTokens(p.toolCalls ? p.toolCalls.map((c) => c.function.name + c.function.arguments).join("") : p.text, family);
    return { prompt_tokens: countMessageTokens(req.messages, family), completion_tokens: completion };
  }

  private plan(req: ProviderRequest, family: TokenizerFamily): Planned[] {
    const n = Math.max(1, req.params.n ?? 1);
    const question = [...req.messages].reverse().find((m) => m.role === "user")?.content ?? "";
    const words = topicWords(question);
    const call = this.toolCall(req, question, words);
    return Array.from({ length: n }, (_, variant): Planned => {
      if (call) return { text: "", toolCalls: [call], finish: "tool_calls" };
      const format = req.params.response_format;
      if (format?.type === "json_schema") {
        const schema = (format.json_schema as { schema?: unknown } | undefined)?.schema ?? { type: "object" };
        return { text: JSON.stringify(schemaInstance(schema, rotate(words, variant))), finish: "stop" };
      }
      const last = req.messages.at(-1);
      const text = last?.role === "tool" ? `Here is what the tool returned: ${last.content.slice(0, 300)}` : simulatedAnswer(req.messages, variant);
      if (format?.type === "json_object") return { text: JSON.stringify({ answer: text }), finish: "stop" };
      return this.cut(text, req.max_tokens, family);
    });
  }

  /** The tool call to answer with, if the request offers tools and the conversation does not already end in a tool result. */
  private toolCall(req: ProviderRequest, question: string, words: string[]): ToolCall | undefined {
    const p = req.params;
    if (!p.tools?.length || p.tool_choice === "none") return undefined;
    const tools = functionTools(p.tools, this.name);
    const choice = p.tool_choice === undefined ? { mode: "auto" as const } : toolChoice(p.tool_choice, this.name);
    if (choice.mode === "auto" && req.messages.at(-1)?.role === "tool") return undefined;
    const tool = choice.mode === "function" ? tools.find((t) => t.name === choice.name) : bestMatch(tools, question);
    if (!tool)
      throw new ProviderError(
        "unsupported",
        `tool_choice names '${(choice as { name?: string }).name}', which is not among tools`,
        undefined,
        undefined,
        "tool_choice",
      );
    const args = JSON.stringify(schemaInstance(tool.parameters ?? { type: "object", properties: {} }, words));
    return { id: `call_${fnv1a(`${tool.name}\u0000${question}`).toString(36)}`, type: "function", function: { name: tool.name, arguments: args } };
  }

  /** The answer cut to max_tokens whole words, as a real model stops at its limit. */
  private cut(full: string, maxTokens: number, family: TokenizerFamily): Planned {
    if (countTokens(full, family) <= maxTokens) return { text: full, finish: "stop" };
    let text = "";
    for (const word of full.match(/\S+\s*/g) ?? []) {
      if (countTokens(text + word, family) > maxTokens) break;
      text += word;
    }
    return { text: text.trimEnd(), finish: "length" };
  }

  private family(model: string): TokenizerFamily {
    return tokenizerFor(this.catalog.find(model)?.provider);
  }

  private checkAborted(req: ProviderRequest): void {
    if (req.signal.aborted) throw new ProviderError("aborted", `${this.name} call aborted by the caller`);
  }
}

/** The tool sharing the most content words with the question (name split at _ and case changes, and description); the first on a tie. */
function bestMatch(tools: readonly FunctionTool[], question: string): FunctionTool | undefined {
  const asked = new Set(question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  let best: FunctionTool | undefined;
  let bestScore = -1;
  for (const t of tools) {
    const words = `${t.name.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[_-]/g, " ")} ${t.description ?? ""}`.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
    const score = new Set(words.filter((w) => w.length > 2 && !STOPWORDS.has(w) && asked.has(w))).size;
    if (score > bestScore) [best, bestScore] = [t, score];
  }
  return best;
}

/** Tool arguments streamed in a few pieces, as providers send them. */
function pieces(text: string): string[] {
  const size = Math.max(8, Math.ceil(text.length / 4));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
