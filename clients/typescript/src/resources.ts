import type { RequestOptions, Svc } from "./client.js";
import type {
  AgentRun,
  AgentRunLimits,
  Budget,
  Conversation,
  CreateBudgetParams,
  CreatedKey,
  CreateKeyParams,
  UpdateKeyParams,
  DeletedBudget,
  KeyRecord,
  List,
  Protocol,
  UpdateBudgetParams,
  UsageCsvPage,
  UsagePage,
  UsageParams,
  UsageRow,
} from "./types.js";

/** One path segment: an id the caller chose (an agent run's, a conversation's) may hold any character. */
const seg = (id: string) => encodeURIComponent(id);

/**
 * The resources under `/api/`: each is scoped to the calling key's `app_id` (another app's id is 404
 * `NOT_FOUND`); reading needs any key of the app, changing needs one with scope `admin` (else 403 `FORBIDDEN`).
 */
abstract class Resource {
  constructor(protected readonly svc: Svc) {}
}

/** `/api/keys`: needs a key with scope `admin`; manages the keys of that key's `app_id` only. */
export class Keys extends Resource {
  /** Creates a key; the answer carries its value (`key`) this once. */
  create(params: CreateKeyParams, options?: RequestOptions): Promise<CreatedKey> {
    return this.svc.json("POST", "/api/keys", params, options);
  }

  async list(options?: RequestOptions): Promise<KeyRecord[]> {
    return (await this.svc.json<List<KeyRecord>>("GET", "/api/keys", undefined, options)).data;
  }

  /** Changes a key's defaults: `budget_id` (null unbinds it) and/or `agent_run_limits`; what is left out is kept. */
  update(id: string, params: UpdateKeyParams, options?: RequestOptions): Promise<KeyRecord> {
    return this.svc.json("PATCH", `/api/keys/${seg(id)}`, params, options);
  }

  /** Revokes a key by its id (`key_…`); calls with it then fail with 401 KEY_REVOKED. */
  revoke(id: string, options?: RequestOptions): Promise<KeyRecord> {
    return this.svc.json("DELETE", `/api/keys/${seg(id)}`, undefined, options);
  }
}

/** `/api/budgets`: a call with `svc_options.budget_id` that would overspend is 402 BUDGET_EXCEEDED before any provider call. */
export class Budgets extends Resource {
  create(params: CreateBudgetParams, options?: RequestOptions): Promise<Budget> {
    return this.svc.json("POST", "/api/budgets", params, options);
  }

  async list(options?: RequestOptions): Promise<Budget[]> {
    return (await this.svc.json<List<Budget>>("GET", "/api/budgets", undefined, options)).data;
  }

  get(id: string, options?: RequestOptions): Promise<Budget> {
    return this.svc.json("GET", `/api/budgets/${seg(id)}`, undefined, options);
  }

  /** Renames it or changes its limit; spend so far is kept. */
  update(id: string, params: UpdateBudgetParams, options?: RequestOptions): Promise<Budget> {
    return this.svc.json("PATCH", `/api/budgets/${seg(id)}`, params, options);
  }

  delete(id: string, options?: RequestOptions): Promise<DeletedBudget> {
    return this.svc.json("DELETE", `/api/budgets/${seg(id)}`, undefined, options);
  }
}

/**
 * `/api/agent-runs/{id}`: a run exists once a call names it in `svc_options.agent_run_id` or its limits
 * are set. A tripped guard answers 429 AGENT_GUARD (never retried) until `reset()`.
 */
export class AgentRuns extends Resource {
  get(id: string, options?: RequestOptions): Promise<AgentRun> {
    return this.svc.json("GET", `/api/agent-runs/${seg(id)}`, undefined, options);
  }

  /** Sets the run's limits, creating the run if it is new; a limit left out keeps its value. */
  setLimits(id: string, limits: AgentRunLimits, options?: RequestOptions): Promise<AgentRun> {
    return this.svc.json("PUT", `/api/agent-runs/${seg(id)}`, limits, options);
  }

  /** Clears the totals and a tripped guard; the run continues under the same limits. */
  reset(id: string, options?: RequestOptions): Promise<AgentRun> {
    return this.svc.json("POST", `/api/agent-runs/${seg(id)}/reset`, undefined, options);
  }

  /** Ends the run: later calls naming it are refused with 429 AGENT_GUARD. */
  close(id: string, options?: RequestOptions): Promise<AgentRun> {
    return this.svc.json("POST", `/api/agent-runs/${seg(id)}/close`, undefined, options);
  }
}

/** `/api/conversations/{id}`: a conversation is made by the first call naming `svc_options.conversation_id`. */
export class Conversations extends Resource {
  get(id: string, options?: RequestOptions): Promise<Conversation> {
    return this.svc.json("GET", `/api/conversations/${seg(id)}`, undefined, options);
  }

  /** Forgets its stored turns and summary; answers what it held. */
  delete(id: string, options?: RequestOptions): Promise<Conversation> {
    return this.svc.json("DELETE", `/api/conversations/${seg(id)}`, undefined, options);
  }
}

/** `/api/protocols`: a call with `svc_options.protocol_id` gets the protocol's compressed content as its first system message. */
export class Protocols extends Resource {
  create(params: { name: string; content: string }, options?: RequestOptions): Promise<Protocol> {
    return this.svc.json("POST", "/api/protocols", params, options);
  }

  /** Without `content` and `compressed_content`. */
  async list(options?: RequestOptions): Promise<Protocol[]> {
    return (await this.svc.json<List<Protocol>>("GET", "/api/protocols", undefined, options)).data;
  }

  get(id: string, options?: RequestOptions): Promise<Protocol> {
    return this.svc.json("GET", `/api/protocols/${seg(id)}`, undefined, options);
  }

  /** Replaces the content: every update is the next `version`, compressed once. */
  update(id: string, content: string, options?: RequestOptions): Promise<Protocol> {
    return this.svc.json("PUT", `/api/protocols/${seg(id)}`, { content }, options);
  }

  delete(id: string, options?: RequestOptions): Promise<Protocol> {
    return this.svc.json("DELETE", `/api/protocols/${seg(id)}`, undefined, options);
  }
}

/** `/api/usage?…` for the given filters and format. */
function usagePath(params: UsageParams, format: "json" | "csv"): string {
  const q = new URLSearchParams();
  for (const field of ["from", "to"] as const) {
    const v = params[field];
    if (v !== undefined) q.set(field, v instanceof Date ? v.toISOString() : String(v));
  }
  if (params.group_by !== undefined) q.set("group_by", params.group_by);
  if (params.limit !== undefined) q.set("limit", String(params.limit));
  if (params.cursor !== undefined) q.set("cursor", params.cursor);
  for (const field of ["key_id", "model", "budget_id"] as const) if (params[field] !== undefined) q.set(field, params[field]);
  if (params.totals === false) q.set("totals", "false");
  if (format === "csv") q.set("format", "csv");
  const s = q.toString();
  return s ? `/api/usage?${s}` : "/api/usage";
}

/**
 * `/api/usage`: the app's calls aggregated by day, key, model, budget or agent run over [from, to), a page
 * at a time. Rows reach the store within the gateway's flush interval (`SVC_FLUSH_MS`) of their call.
 */
export class Usage extends Resource {
  /** One page; pass its `next_cursor` as `cursor` for the next. */
  get(params: UsageParams = {}, options?: RequestOptions): Promise<UsagePage> {
    return this.svc.json("GET", usagePath(params, "json"), undefined, options);
  }

  /** Every row from `params.cursor` (default the first page) to the last page, fetched a page at a time. */
  async *rows(params: UsageParams = {}, options?: RequestOptions): AsyncGenerator<UsageRow> {
    let cursor = params.cursor;
    do {
      const page = await this.get({ ...params, cursor }, options);
      yield* page.rows;
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined);
  }

  /** One page as CSV: a header line, then a line per row (saved_by_source as five `saved_*_usd` columns). */
  async csv(params: UsageParams = {}, options?: RequestOptions): Promise<UsageCsvPage> {
    const res = await this.svc.request("GET", usagePath(params, "csv"), undefined, options);
    return { csv: await res.text(), next_cursor: res.headers.get("x-next-cursor") };
  }
}
