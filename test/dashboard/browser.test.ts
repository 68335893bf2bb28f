import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { CHROMIUM, chromiumPresent as present, launchChromium } from "../support/chromium";
import { call, startGateway, type GatewayProcess, type KeyCreated } from "../support/gateway-process";
import { startOpenAIMock } from "../mocks/openai-mock";
import type { MockProvider } from "../mocks/mock-server";
import { int, usd } from "../../src/http/dashboard/ui/format";

/**
 * The dashboard and the playground in a real browser: Debian's chromium driven by playwright-core
 * against `svc serve` as its own process with an OpenAI wire-format mock upstream. Screenshots go to
 * test-artifacts/browser/ (git-ignored).
 */
if (!present) console.log(`skipping the browser tests: ${CHROMIUM} is absent (apt-get install chromium; .ci/run installs it)`);

export const ARTIFACTS = join(import.meta.dir, "..", "..", "test-artifacts", "browser");
const CHATTY =
  "Hi there! I hope you are doing well. I was wondering if you could possibly help me write a short poem about the sea. My email is jane.doe@example.com if that helps. Thanks so much in advance!";

let gw: GatewayProcess;
let mock: MockProvider;
let admin: KeyCreated;
let context: BrowserContext;
let page: Page;
let profile: string;

const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
const card = (label: string) => page.locator("#totals .card", { has: page.locator("dt", { hasText: label }) }).locator("dd");
/** A table's body as rows of cell texts. */
const cells = async (selector: string) =>
  Promise.all((await page.locator(`${selector} tbody tr`).all()).map(async (r) => (await r.locator("td").allTextContents()).map((c) => c.trim())));
/** The gateway's own answer, read with the signed-in admin key, to hold the page's numbers against. */
const apiGet = async (path: string) => {
  const res = await call(`${gw.url}${path}`, admin.key);
  expect(res.status).toBe(200);
  return (await res.json()) as any;
};

describe.skipIf(!present)("dashboard in chromium", () => {
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    mock = startOpenAIMock();
    gw = await startGateway({ OPENAI_API_KEY: "sk-mock", OPENAI_BASE_URL: `${mock.url}/v1`, SVC_FLUSH_MS: "100" });
    admin = await gw.cliKey(["--admin"]);
    profile = mkdtempSync(join(tmpdir(), "svc-chromium-"));
    context = await launchChromium(profile, { width: 1280, height: 900 });
    page = await context.newPage();
    page.on("dialog", (d) => d.accept());
  }, 90_000);

  afterAll(async () => {
    await context?.close();
    await gw?.stop();
    mock?.stop();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  test("sign in: a wrong key is refused, an admin key is kept in the tab's session only", async () => {
    await page.goto(`${gw.url}/dashboard`);
    await page.getByLabel("Admin key").fill("svc_live_notarealkey");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").filter({ hasText: "Sign-in refused" }).waitFor();
    await page.getByLabel("Admin key").fill(admin.key);
    await page.getByLabel("Admin key").press("Enter");
    await page.getByRole("heading", { name: "Usage and savings" }).waitFor();
    await expect(card("Calls").textContent()).resolves.toContain("0");
    expect(page.url()).not.toContain(admin.key);
    expect(await page.evaluate(`[sessionStorage.getItem("svc.adminKey"), localStorage.length, document.cookie]`)).toEqual([admin.key, 0, ""]);
    await shot("01-signed-in");
  }, 30_000);

  let worker: { name: string; value: string };
  test("Settings → API Keys: create shows the value once, with a copy button and a warning", async () => {
    await page.getByRole("button", { name: "Settings → API Keys" }).click();
    await page.getByLabel("Name").fill("ci-worker");
    await page.getByLabel("Plan").fill("free");
    await page.getByRole("button", { name: "Create key" }).click();
    const secret = page.locator(".secret");
    await expect(secret.textContent()).resolves.toContain("only time it is shown");
    const value = (await page.locator("#new-key-value").textContent())!;
    expect(value).toMatch(/^svc_live_[0-9A-Za-z]{38}$/);
    worker = { name: "ci-worker", value };
    expect(await secret.getByRole("button", { name: "Copy" }).isVisible()).toBe(true);
    const row = page.locator("tr", { has: page.locator("td", { hasText: /^ci-worker$/ }) });
    await expect(row.textContent()).resolves.toContain(value.slice(0, 12) + "…" + value.slice(-4));
    await expect(row.textContent()).resolves.toMatch(/live.*free.*complete.*active.*never/);
    await shot("02-key-created");
    await page.getByRole("button", { name: "I have stored it" }).click();
    expect(await page.content()).not.toContain(value);
  }, 30_000);

  test("calls change the totals, the charts, the savings by source and the model mix, as /api/usage gives them; the filters narrow them", async () => {
    const send = (model: string, content: string) =>
      call(`${gw.url}/v1/chat/completions`, worker.value, { body: { model, messages: [{ role: "user", content }] } });
    for (let i = 0; i < 3; i++) expect((await send("gpt-4o-mini", CHATTY)).status).toBe(200);
    const big = await send("gpt-4o", "Explain a monad in one sentence.");
    expect(big.status).toBe(200);
    const bigModel = ((await big.json()) as { model: string }).model;
    // auto is priced on the baseline model and served by a cheaper one: a routing saving.
    expect((await send("auto", "Say hello to the team in one line.")).status).toBe(200);
    await page.getByRole("button", { name: "Usage and savings" }).click();
    // Ledger rows reach the store within a flush interval; Refresh until they are there.
    for (let i = 0; i < 50 && !(await card("Calls").textContent())?.startsWith("5"); i++) {
      await Bun.sleep(100);
      await page.getByRole("button", { name: "Refresh" }).click();
    }
    expect(await card("Calls").textContent()).toBe("5");
    await page.getByRole("status").filter({ hasText: "Updated" }).waitFor();
    const today = new Date().toISOString().slice(0, 10);
    const range = `from=${new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10)}T00:00:00Z&to=${new Date(Date.parse(today) + 86_400_000).toISOString()}`;
    const u = await apiGet(`/api/usage?group_by=day&${range}`);
    expect(u.totals.calls).toBe(5);
    expect(await card("Cache hit rate").textContent()).toContain("40.0% of calls");
    expect(await card("Saved").textContent()).toStartWith(usd(u.totals.saved_usd));
    expect(await card("Cost with svc").textContent()).toBe(usd(u.totals.cost_actual_usd));
    expect(await card("Tokens before → after compression").textContent()).toBe(`${int(u.totals.original_tokens)} → ${int(u.totals.sent_tokens)}`);
    expect(await card("Overhead p50 / p99").textContent()).toBe(`${u.totals.overhead_ms.p50} / ${u.totals.overhead_ms.p99} ms`);
    // The savings split: each source's figure is the API's, and cache and routing both saved something.
    const split = Object.fromEntries((await cells("#savings-by-source")).map(([source, saved]) => [source, saved]));
    expect(split).toEqual({
      compression: usd(u.totals.saved_by_source.compression),
      routing: usd(u.totals.saved_by_source.routing),
      "semantic cache": usd(u.totals.saved_by_source.cache),
      "provider prompt cache": usd(u.totals.saved_by_source.prompt_cache),
      conversation: usd(u.totals.saved_by_source.conversation),
    });
    expect(u.totals.saved_by_source.cache).toBeGreaterThan(0);
    expect(u.totals.saved_by_source.routing).toBeGreaterThan(0);
    // uPlot drew every chart (a canvas and its legend with its series).
    for (const id of ["chart-cost", "chart-sources", "chart-tokens", "chart-calls"]) expect(await page.locator(`#${id} canvas`).count()).toBe(1);
    await expect(page.locator("#chart-cost .u-legend").textContent()).resolves.toContain("without svc");
    await expect(page.locator("#chart-sources .u-legend").textContent()).resolves.toContain("semantic cache");
    const models = await apiGet(`/api/usage?group_by=model&${range}`);
    expect((await cells("#model-mix")).map(([m, calls]) => [m, calls]).sort()).toEqual(models.rows.map((r: any) => [r.group, int(r.calls)]).sort());
    await shot("03-usage");
    await page.getByLabel("Model", { exact: true }).selectOption(bigModel);
    await page.getByRole("button", { name: "Apply" }).click();
    // A locator, not waitForFunction: the page's CSP refuses evaluated strings.
    await page.locator("#totals .card").first().locator("dd", { hasText: /^1$/ }).waitFor();
    expect(await card("Cache hit rate").textContent()).toContain("0.0% of calls");
  }, 30_000);

  test("budgets: spend, reserved and remaining as /api/budgets gives them, and the usage filter by budget", async () => {
    const created = await call(`${gw.url}/api/budgets`, admin.key, { body: { name: "team-a", limit_usd: 5, period: "monthly" } });
    expect(created.status).toBe(201);
    const budget = (await created.json()) as any;
    for (let i = 0; i < 2; i++) {
      const res = await call(`${gw.url}/v1/chat/completions`, worker.value, {
        body: { model: "gpt-4o", messages: [{ role: "user", content: `Budgeted question number ${i}` }], svc_options: { budget_id: budget.id } },
      });
      expect(res.status).toBe(200);
    }
    await page.getByRole("button", { name: "Budgets" }).click();
    let want = (await apiGet(`/api/budgets/${budget.id}`)) as any;
    expect(want.spent_usd).toBeGreaterThan(0);
    // Usage rows reach the store within a flush interval: reopen the view until its 30-day calls are in.
    let row: string[] | undefined;
    for (let i = 0; i < 50; i++) {
      row = (await cells("#budgets")).find((r) => r[0] === "team-a");
      if (row?.[8] === "2") break;
      await Bun.sleep(100);
      await page.getByRole("button", { name: "Budgets" }).click();
      await page.locator("#budgets").waitFor();
    }
    want = await apiGet(`/api/budgets/${budget.id}`);
    expect(row).toEqual([
      "team-a",
      "monthly",
      usd(5),
      usd(want.spent_usd),
      usd(want.reserved_usd),
      usd(want.remaining_usd),
      expect.any(String),
      expect.any(String),
      "2",
      expect.any(String),
    ]);
    expect(await page.getByRole("meter", { name: "team-a used" }).getAttribute("value")).toBe(String((want.spent_usd + want.reserved_usd) / 5));
    await shot("05-budgets");
    await page.getByRole("button", { name: "Usage and savings" }).click();
    await page.getByRole("heading", { name: "Usage and savings" }).waitFor();
    await page.getByLabel("Budget", { exact: true }).selectOption(budget.id);
    await page.getByRole("button", { name: "Apply" }).click();
    await page.locator("#totals .card").first().locator("dd", { hasText: /^2$/ }).waitFor();
    const spent = (await apiGet(`/api/usage?group_by=day&budget_id=${budget.id}`)).totals;
    expect(spent.calls).toBe(2);
    expect(await card("Cost with svc").textContent()).toBe(usd(spent.cost_actual_usd));
    // The budget is charged in whole micro-dollars, each call rounded up.
    expect(want.spent_usd).toBeGreaterThanOrEqual(spent.cost_actual_usd);
    expect(want.spent_usd).toBeLessThanOrEqual(spent.cost_actual_usd + 2e-6);
  }, 30_000);

  test("agent runs listed with their calls and opened as /api/agent-runs gives them; a conversation looked up by id", async () => {
    for (let i = 0; i < 3; i++) {
      const res = await call(`${gw.url}/v1/chat/completions`, worker.value, {
        body: {
          model: "gpt-4o-mini",
          messages: [{ role: "user", content: `Step ${i} of the plan: list the files.` }],
          svc_options: { agent_run_id: "run-ci-1", conversation_id: "conv-ci-1" },
        },
      });
      expect(res.status).toBe(200);
    }
    await page.getByRole("button", { name: "Agent runs and conversations" }).click();
    for (let i = 0; i < 50 && !(await cells("#runs").catch(() => [])).some((r) => r[0] === "run-ci-1" && r[1] === "3"); i++) {
      await Bun.sleep(100);
      await page.getByRole("button", { name: "Agent runs and conversations" }).click();
      await page.getByRole("heading", { name: "Conversations", exact: true }).waitFor();
    }
    const listed = (await cells("#runs")).find((r) => r[0] === "run-ci-1")!;
    const usageRow = (await apiGet("/api/usage?group_by=agent_run")).rows.find((r: any) => r.group === "run-ci-1");
    expect(listed).toEqual(["run-ci-1", "3", usd(usageRow.cost_actual_usd), usd(usageRow.saved_usd)]);
    await page.getByRole("button", { name: "run-ci-1" }).click();
    const run = await apiGet("/api/agent-runs/run-ci-1");
    const facts = page.locator("#run-facts");
    await facts.waitFor();
    const labels = await facts.locator("dt").allTextContents();
    const values = await facts.locator("dd").allTextContents();
    const byLabel = Object.fromEntries(labels.map((k, i) => [k, values[i]]));
    expect(byLabel).toMatchObject({
      Status: run.status,
      Calls: int(run.calls),
      Cost: usd(run.cost_usd),
      "Tokens in / out": `${int(run.prompt_tokens)} / ${int(run.completion_tokens)}`,
    });
    expect(run.calls).toBe(3);

    await page.getByLabel("Conversation id").fill("conv-ci-1");
    await page.getByRole("button", { name: "Show conversation" }).click();
    await page.locator("#conversation-facts").waitFor();
    const conv = await apiGet("/api/conversations/conv-ci-1");
    expect(conv.turns).toBeGreaterThanOrEqual(6);
    const convValues = await page.locator("#conversation-facts dd").allTextContents();
    expect(convValues).toEqual([int(conv.turns), int(conv.kept_turns), int(conv.summarized_turns), int(conv.tokens_saved)]);
    await page.getByLabel("Conversation id").fill("no-such-conversation");
    await page.getByRole("button", { name: "Show conversation" }).click();
    await page.locator("#conversation-detail .error").waitFor();
    await shot("06-runs");
  }, 30_000);

  test("revoke: the key is refused afterwards; no key value ever reached the server's log", async () => {
    await page.getByRole("button", { name: "Settings → API Keys" }).click();
    await page.getByRole("button", { name: /Revoke key ci-worker/ }).click();
    await page.getByRole("status").filter({ hasText: "Revoked ci-worker" }).waitFor();
    const row = page.locator("tr", { has: page.locator("td", { hasText: /^ci-worker$/ }) });
    await expect(row.textContent()).resolves.toContain("revoked");
    expect(await row.getByRole("button").count()).toBe(0);
    const res = await call(`${gw.url}/v1/chat/completions`, worker.value, { body: { model: "gpt-4o-mini", messages: [{ role: "user", content: "hello" }] } });
    expect(res.status).toBe(401);
    expect(((await res.json()) as any).error.code).toBe("KEY_REVOKED");
    await shot("04-key-revoked");
    const logs = gw.logs().join("\n");
    expect(logs).toContain("/dashboard");
    expect(logs).not.toContain(admin.key);
    expect(logs).not.toContain(worker.value);
  }, 30_000);
});

describe.skipIf(!present)("playground in chromium", () => {
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    gw = await startGateway({});
    profile = mkdtempSync(join(tmpdir(), "svc-chromium-"));
    context = await launchChromium(profile, { width: 1280, height: 900 });
    page = await context.newPage();
  }, 90_000);

  afterAll(async () => {
    await context?.close();
    await gw?.stop();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  test("a chatty prompt: removed parts marked, routing decision and reason, quality score, PII found, estimated costs", async () => {
    await page.goto(`${gw.url}/v1/playground`);
    await page.getByLabel("Your prompt").fill(CHATTY);
    await page.getByRole("button", { name: "Optimize" }).click();
    await page.locator("#meta:not([hidden])").waitFor();
    // The pleasantries are struck through; the request itself stays.
    const removed = (await page.locator("#out del").allTextContents()).join(" ");
    expect(removed).toMatch(/hope you are doing well/i);
    expect(await page.locator("#out").textContent()).toContain("poem about the sea");
    const meta = Object.fromEntries(
      (await page.locator("#meta tr").all()).length
        ? await Promise.all((await page.locator("#meta tr").all()).map(async (r) => [await r.locator("th").textContent(), await r.locator("td").textContent()]))
        : [],
    );
    expect(meta.model).toBeTruthy();
    expect(meta["routing reason"]).toMatch(/^creative_task|^chat_default|_task|_pattern|_default/);
    expect(meta["quality score"]).toMatch(/^\d+ \/ 100$/);
    expect(meta["prompt cost without svc"]).toMatch(/^\$[\d.e-]+$/);
    expect(Number(meta["saved on the prompt"]!.slice(1))).toBeGreaterThan(0);
    // The PII listed is the analysis's `pii` field (masking is on by default on the page), each span
    // shown as the text it covers; the email is masked before it goes upstream.
    const listed = await page.locator("#pii li").allTextContents();
    expect(listed.some((l) => l.includes("jane.doe@example.com"))).toBe(true);
    expect((await page.locator("#out del").allTextContents()).join(" ")).toContain("jane.doe@example.com");
    await shot("07-playground");
  }, 30_000);
});
