import { ApiError } from "../../core/errors";
import { TIERS, type Catalog, type ModelInfo, type RoutableModel, type Tier } from "../../catalog/catalog";
import { TASK_CLASSES, type TaskClass, type TaskPrediction } from "../../ml/types";
import { difficultyBand, type CapabilityTable, type DifficultyBand } from "./capabilities";
import { REASON_OF_TASK, type RoutingReason } from "./reasons";
import type { PromptSignals } from "./signals";

export const AUTO_MODEL = "auto";

export interface RouteInput {
  /** The `model` the client sent: "auto", a versioned id or an alias. */
  model: string;
  /** `svc_options.route`. */
  route: boolean;
  /** The task classifier's verdict; needed only when `needsClassification` says so. */
  prediction?: TaskPrediction;
  /** A function when computing them costs something: it is called only when routing by task. */
  signals: PromptSignals | (() => PromptSignals);
  catalog: Catalog;
  capabilities: CapabilityTable;
  /** True when the model's provider is configured and currently healthy. */
  isAvailable: (model: ModelInfo) => boolean;
}

export interface Routed {
  ok: true;
  model: ModelInfo;
  reason: RoutingReason;
  /** Absent for a model named by the client that the catalog gives no tier. */
  tier?: Tier;
  /**
   * What the provider layer tries, in order, when a call fails: the chosen model, the other models of
   * its tier, then higher tiers, never a lower one. Every entry is available, has the features the
   * request needs and fits its context.
   */
  candidates: readonly ModelInfo[];
  /** The task class routing acted on (after the code-fence rule); absent when the client's choice decided. */
  task?: TaskClass;
  /**
   * With `auto` routing by task: every available model at or above the task's floor tier (the lowest
   * the capability table accepts for it) with the request's features, fitting its context, cheapest
   * tier first. A budget that cannot cover `candidates` may be served from these (stages/budget.ts).
   */
  capable?: readonly ModelInfo[];
}

/**
 * No available model can serve the request: the gateway answers 503 NO_PROVIDER with `message`, or
 * 400 when the prompt is longer than every available model's context (`tooLong`): the client's to fix.
 */
export interface NoProvider {
  ok: false;
  code: "NO_PROVIDER";
  reason: RoutingReason;
  /** The lowest tier that would have done. */
  tier?: Tier;
  message: string;
  tooLong?: boolean;
}

export type RouteDecision = Routed | NoProvider;

/** Whether decideRoute will need a TaskPrediction, so the gateway runs the classifier only then. */
export function needsClassification(model: string, route: boolean): boolean {
  return model === AUTO_MODEL && route;
}

/**
 * Picks the model for one request. Pure and synchronous: everything it depends on is in the input.
 * Throws the catalog's 400 MODEL_NOT_FOUND ApiError for an unknown explicit model.
 */
export function decideRoute(input: RouteInput): RouteDecision {
  if (input.model !== AUTO_MODEL) return asked(input.catalog.resolve(input.model), "explicit_model", input.isAvailable);
  if (!input.route) return asked(input.catalog.defaultModel, "route_disabled", input.isAvailable);
  if (!input.prediction) throw new Error("decideRoute: model 'auto' with routing on needs the task prediction");
  return routeByTask(input, input.prediction);
}

/** A model the client or the operator named is served as named, or not at all. */
function asked(model: ModelInfo, reason: RoutingReason, isAvailable: (m: ModelInfo) => boolean): RouteDecision {
  if (!isAvailable(model)) return noProvider(reason, model.tier, `no configured provider can serve model '${model.id}' (provider ${model.provider})`);
  const routed: Routed = { ok: true, model, reason, candidates: [model] };
  // Set, not spread in: every call naming its model comes here (see completion-request.ts on conditional spreads).
  if (model.tier) routed.tier = model.tier;
  return routed;
}

function routeByTask(input: RouteInput, p: TaskPrediction): RouteDecision {
  const s = typeof input.signals === "function" ? input.signals() : input.signals;
  const { capabilities: table, catalog } = input;
  const band = difficultyBand(table, p.difficulty);
  const task: TaskClass = table.code_fence_classes.includes(p.task) && (s.codeFences > 0 || s.pastedCode) ? "code" : p.task;
  const listed = table.classes[task][band];

  // Tiers the request must have (floor) and should have (preferred). Escalations above the floor are
  // wishes: when no model of the wished tier is available, serving at the floor beats a 503.
  let floor: Tier = listed;
  let preferred: Tier = listed;
  let reason: RoutingReason = REASON_OF_TASK[task];
  if (listed === "most_capable") {
    floor = "balanced";
    preferred = task === p.task && p.confidence >= table.most_capable_min_confidence ? "most_capable" : "balanced";
  } else if (listed === "cheapest") {
    // Only up to balanced: most_capable is kept for hard reasoning the classifier is sure of.
    const confidence = tierConfidence(table, band, p, listed);
    const up =
      confidence < table.tier_confidence_threshold
        ? "low_confidence"
        : (hardPromptSignal(table, s) ?? longQuestion(table, s, task, confidence) ?? softwareTerms(table, s, task, confidence));
    if (up) {
      preferred = "balanced";
      reason = up;
    }
  }

  const features = requiredFeatures(s);
  const need = s.promptTokens + s.maxCompletionTokens;
  const fits = (m: RoutableModel) => need <= m.context_window * (1 - table.context_headroom);
  const order = (a: RoutableModel, b: RoutableModel) =>
    rank(a.tier) - rank(b.tier) ||
    catalog.cost(a, s.promptTokens, s.maxCompletionTokens) - catalog.cost(b, s.promptTokens, s.maxCompletionTokens) ||
    a.id.localeCompare(b.id);
  // The usable models sorted once: every list below is a filter of them, which keeps their order, and a
  // stable sort of a filter is that filter of the stable sort. Three sorts and up to six filters, one per
  // list, were a third of routeByTask's samples (bun --cpu-prof, fresh ~300-token prompts, every stage on);
  // decideRoute 3.36 -> 2.47 µs p50 with them sorted once (6,000 calls, the two interleaved, the same decisions).
  const usable = catalog.routable.filter((m) => input.isAvailable(m) && features.every((f) => m.features.includes(f))).sort(order);
  const atLeast = (tier: Tier) => usable.filter((m) => rank(m.tier) >= rank(tier));
  const atPreferred = atLeast(preferred);
  const atFloor = floor === preferred ? atPreferred : atLeast(floor);

  let candidates = atPreferred.filter(fits);
  if (candidates.length === 0) candidates = atFloor.filter(fits);
  const chosen = candidates[0];
  if (!chosen) return atFloor.length > 0 ? tooLong(reason, floor, need, atFloor, table.context_headroom) : noProvider(reason, floor, whyNone(s, floor));

  // Report long_context when the prompt's size, not the task, moved the request off the model it would have had.
  const unconstrained = (atPreferred.length > 0 ? atPreferred : atFloor)[0];
  return {
    ok: true,
    model: chosen,
    reason: unconstrained && unconstrained.id !== chosen.id ? "long_context" : reason,
    tier: chosen.tier,
    candidates,
    task,
    capable: atFloor.filter(fits),
  };
}

/** Probability that the task needs no more than `tier`: the summed probability of every class the table puts there or lower. */
export function tierConfidence(table: CapabilityTable, band: DifficultyBand, p: TaskPrediction, tier: Tier): number {
  let sum = 0;
  for (const c of TASK_CLASSES) if (rank(table.classes[c][band]) <= rank(tier)) sum += p.probs[c] ?? 0;
  return sum;
}

/** The first signal of a hard prompt that reaches the operator's threshold (capabilities.json `hard_prompt`), if any. */
export function hardPromptSignal(table: CapabilityTable, s: PromptSignals): RoutingReason | undefined {
  const t = table.hard_prompt;
  const reached = (value: number, from: number) => from > 0 && value >= from;
  if (reached(s.hardness.constraints, t.constraints_from)) return "many_constraints";
  if (reached(s.hardness.steps, t.steps_from)) return "multi_step";
  if (reached(s.hardness.requestedWords, t.requested_words_from)) return "long_output";
  if (reached(s.promptTokens, t.context_tokens_from)) return "large_context";
  if (reached(s.hardness.deliberation, t.deliberation_from)) return "deliberation";
  if (reached(s.hardness.calculation, t.calculation_from) && s.promptTokens < t.calculation_below_tokens) return "calculation";
  if (t.estimation && s.estimation) return "estimation";
  return undefined;
}

/**
 * `long_question` when a long prompt taken for a short-answer class is not sure enough of the cheapest tier
 * (capabilities.json `long_question`), unless it is small talk that asks the assistant about itself.
 */
function longQuestion(table: CapabilityTable, s: PromptSignals, task: TaskClass, confidence: number): RoutingReason | undefined {
  const t = table.long_question;
  const long = t.tokens_from > 0 && s.promptTokens >= t.tokens_from && t.classes.includes(task) && confidence < t.tier_confidence_threshold;
  return long && !(t.spare_small_talk && s.smallTalk) ? "long_question" : undefined;
}

/**
 * `software_terms` when a prompt the table sends to the cheapest tier is full of software words
 * (capabilities.json `software_terms`) and either was taken for a class that is not about software at all
 * (`classes`: a Terraform request taken for small talk at 0.86) or is less sure of the cheapest tier than
 * a stricter threshold than the general one (software's 0.85 to the general 0.7: a prompt under 0.7 goes up as
 * `low_confidence` first).
 */
function softwareTerms(table: CapabilityTable, s: PromptSignals, task: TaskClass, confidence: number): RoutingReason | undefined {
  const t = table.software_terms;
  if (t.share_from === 0 || s.softwareShare < t.share_from) return undefined;
  return t.classes.includes(task) || confidence < t.tier_confidence_threshold ? "software_terms" : undefined;
}

/** The catalog's `features` flags a request needs ("tools", "json", "json_schema", "vision"). */
function requiredFeatures(s: PromptSignals): string[] {
  const need: string[] = [];
  if (s.needsTools) need.push("tools");
  if (s.needsJson) need.push("json");
  if (s.needsJsonSchema) need.push("json_schema");
  if (s.needsVision) need.push("vision");
  return need;
}

function rank(t: Tier): number {
  return TIERS.indexOf(t);
}

/** Models that would serve the request but none holds it: a prompt that fits no model is a 400, not a 503 (issue 23). */
function tooLong(reason: RoutingReason, tier: Tier, need: number, usable: RoutableModel[], headroom: number): NoProvider {
  const largest = Math.max(...usable.map((m) => Math.floor(m.context_window * (1 - headroom))));
  const message = `the prompt needs ${need} tokens of context (prompt plus max_tokens), more than any available model holds (at most ${largest}); shorten it or lower max_tokens`;
  return { ...noProvider(reason, tier, message), tooLong: true };
}

function whyNone(s: PromptSignals, floor: Tier): string {
  const needs = requiredFeatures(s);
  const what = needs.length > 0 ? `a ${floor} or better model with the features ${needs.join(", ")}` : `a ${floor} or better model`;
  return `no configured provider serves ${what}`;
}

function noProvider(reason: RoutingReason, tier: Tier | undefined, message: string): NoProvider {
  return { ok: false, code: "NO_PROVIDER", reason, ...(tier && { tier }), message };
}

/** The error the gateway answers for a NoProvider decision. */
export function noProviderError(d: Pick<NoProvider, "message" | "tooLong">): ApiError {
  return d.tooLong ? new ApiError("VALIDATION_ERROR", d.message, { param: "messages" }) : new ApiError("NO_PROVIDER", d.message);
}
