import { describe, expect, test } from "bun:test";
import { failureOutcome } from "../../src/pipeline/settle";
import { ApiError } from "../../src/core/errors";
import { ProviderError } from "../../src/providers/types";

const live = new AbortController().signal;
const gone = AbortSignal.abort();

describe("how a failed call is recorded", () => {
  test("a client that went away is 499 CLIENT_CLOSED, whatever error it left behind", () => {
    expect(failureOutcome(new ProviderError("aborted", "aborted by the caller"), live)).toEqual({ status: 499, code: "CLIENT_CLOSED" });
    // The worker pool refuses to start a task for a client that has left.
    expect(failureOutcome(new DOMException("the client went away", "AbortError"), gone)).toEqual({ status: 499, code: "CLIENT_CLOSED" });
    expect(failureOutcome(new ApiError("UPSTREAM_ERROR", "failed"), gone)).toEqual({ status: 499, code: "CLIENT_CLOSED" });
  });

  test("otherwise the error's own status and code, or 500 INTERNAL_ERROR", () => {
    expect(failureOutcome(new ApiError("UPSTREAM_ERROR", "failed"), live)).toEqual({ status: 502, code: "UPSTREAM_ERROR" });
    expect(failureOutcome(new ApiError("OVERLOADED", "busy", { retryAfterS: 1 }), live)).toEqual({ status: 503, code: "OVERLOADED" });
    expect(failureOutcome(new TypeError("bug"), live)).toEqual({ status: 500, code: "INTERNAL_ERROR" });
  });
});
