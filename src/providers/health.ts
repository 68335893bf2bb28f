import type { ProviderError } from "./types";

export interface HealthPolicy {
  /** Consecutive failures after which a provider is benched. */
  failureThreshold: number;
  /** How long a benched provider is skipped before it is tried again. */
  cooldownMs: number;
}

export const DEFAULT_HEALTH_POLICY: HealthPolicy = { failureThreshold: 3, cooldownMs: 30_000 };

/** What /health shows of one provider. */
export interface ProviderHealthView {
  name: string;
  simulated: boolean;
  healthy: boolean;
  consecutive_failures: number;
  last_error?: string;
  /** ISO time until which the provider is skipped. */
  unhealthy_until?: string;
}

interface State {
  failures: number;
  lastError?: string;
  benchedUntil: number;
}

/**
 * A circuit breaker per provider: after `failureThreshold` failures in a row it is unhealthy for
 * `cooldownMs`; after that one call is let through, and one more failure benches it again.
 */
export class ProviderHealth {
  private readonly states = new Map<string, State>();

  constructor(
    private readonly policy: HealthPolicy = DEFAULT_HEALTH_POLICY,
    private readonly now: () => number = Date.now,
  ) {}

  recordSuccess(provider: string): void {
    this.states.set(provider, { failures: 0, benchedUntil: 0 });
  }

  /** Counts only failures that say the provider itself is in trouble, not a bad request or a client leaving. */
  recordFailure(provider: string, error: ProviderError): void {
    if (!blamesProvider(error)) return;
    const state = this.state(provider);
    state.failures += 1;
    state.lastError = error.message;
    if (state.failures >= this.policy.failureThreshold) state.benchedUntil = this.now() + this.policy.cooldownMs;
  }

  isHealthy(provider: string): boolean {
    return this.now() >= this.state(provider).benchedUntil;
  }

  view(provider: string, simulated: boolean): ProviderHealthView {
    const state = this.state(provider);
    const view: ProviderHealthView = { name: provider, simulated, healthy: this.isHealthy(provider), consecutive_failures: state.failures };
    if (state.lastError !== undefined) view.last_error = state.lastError;
    if (!view.healthy) view.unhealthy_until = new Date(state.benchedUntil).toISOString();
    return view;
  }

  private state(provider: string): State {
    let state = this.states.get(provider);
    if (!state) this.states.set(provider, (state = { failures: 0, benchedUntil: 0 }));
    return state;
  }
}

function blamesProvider(error: ProviderError): boolean {
  if (error.kind === "aborted" || error.kind === "unsupported") return false;
  // A rejected key (401/403) makes the provider unusable as surely as an outage does.
  if (error.kind === "http") return error.retryable || error.status === 401 || error.status === 403;
  return true;
}
