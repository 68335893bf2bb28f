import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { parseCompletionRequest } from "../../src/http/validate/completion-request";
import { ApiError } from "../../src/core/errors";
import { RULE_NAMES } from "../../src/pipeline/compress";

/** Bodies shaped like completion requests, with every field allowed to be wrong. */
const anyJson = fc.jsonValue({ maxDepth: 3 });
const message = fc.record(
  { role: fc.oneof(fc.constantFrom("system", "user", "assistant", "tool"), anyJson), content: fc.oneof(fc.string(), anyJson) },
  { requiredKeys: [] },
);
const body = fc.oneof(
  anyJson,
  fc.record(
    {
      messages: fc.oneof(fc.array(message, { maxLength: 4 }), anyJson),
      model: fc.oneof(fc.constantFrom("auto", "gpt-4o-mini"), anyJson),
      max_tokens: fc.oneof(fc.integer(), anyJson),
      stream: fc.oneof(fc.boolean(), anyJson),
      temperature: fc.oneof(fc.double(), anyJson),
      svc_options: fc.oneof(
        fc.record(
          {
            compress: anyJson,
            max_aggressiveness: fc.oneof(fc.double(), anyJson),
            skip_rules: fc.oneof(fc.array(fc.constantFrom(...RULE_NAMES, "bogus")), anyJson),
          },
          { requiredKeys: [] },
        ),
        anyJson,
      ),
    },
    { requiredKeys: [] },
  ),
);

describe("completion body validation under fuzzing", () => {
  test("any JSON body is either a valid request or a 400 that names a field, never a crash", () => {
    fc.assert(
      fc.property(body, (b) => {
        try {
          const req = parseCompletionRequest(structuredClone(b), RULE_NAMES);
          expect(req.messages.length).toBeGreaterThan(0);
          expect(req.svc_options.max_aggressiveness).toBeGreaterThanOrEqual(0);
          expect(req.svc_options.max_aggressiveness).toBeLessThanOrEqual(1);
        } catch (e) {
          expect(e).toBeInstanceOf(ApiError);
          const err = e as ApiError;
          expect(err.status).toBe(400);
          expect(err.extra.param ?? err.message).toBeString();
        }
      }),
      { numRuns: 3000, seed: 42 },
    );
  });
});
