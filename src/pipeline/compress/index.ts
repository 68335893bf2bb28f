/** The prompt compression stage (svc_options.compress, max_aggressiveness, skip_rules). */
export { compressMessages, CompressOptionsError, RULE_NAMES, unknownRuleNames, validateCompressOptions } from "./compress";
export { compressWithQualityFloor, DEFAULT_QUALITY_FLOOR, promptText } from "./quality-floor";
export type { QualityCheckedResult, QualityFloorOptions, QualityScorer } from "./quality-floor";
export type { CompressOptions, CompressResult } from "./types";
