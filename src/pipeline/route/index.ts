/**
 * The routing stage: `model: "auto"` goes to the cheapest model that can do the task. The gateway
 * computes `promptSignals` from the request, runs the classifier when `needsClassification` says so,
 * and calls `decideRoute`.
 */
export { AUTO_MODEL, decideRoute, needsClassification, noProviderError, tierConfidence } from "./decide";
export type { NoProvider, RouteDecision, RouteInput, Routed } from "./decide";
export { DIFFICULTY_BANDS, difficultyBand, loadCapabilities, parseCapabilities } from "./capabilities";
export type { CapabilityTable, DifficultyBand } from "./capabilities";
export { DEFAULT_MAX_TOKENS, dominantScript, promptSignals } from "./signals";
export type { PromptSignals, Script, SignalSource } from "./signals";
export { REASON_OF_TASK, ROUTING_REASONS } from "./reasons";
export type { RoutingReason } from "./reasons";
