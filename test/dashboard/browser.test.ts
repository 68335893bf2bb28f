import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { CHROMIUM, chromiumPresent as present, launchChromium } from "../support/chromium";
import { call, startGateway, type GatewayProcess, type KeyCreated } from "../support/gateway-process";
import { startOpenAIMock } from "../mocks/openai-mock";
import type { MockProvider } from "../mocks/mock-server";

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

  test("calls change the totals, the charts and the model mix; the filters narrow them", async () => {
    const send = (model: string, content: string) =>
      call(`${gw.url}/v1/chat/completions`, worker.value, { body: { model, messages: [{ role: "user", content }] } });
    for (let i = 0; i < 3; i++) expect((await send("gpt-4o-mini", CHATTY)).status).toBe(200);
    const big = await send("gpt-4o", "Explain a monad in one sentence.");
    expect(big.status).toBe(200);
    const bigModel = ((await big.json()) as { model: string }).model;
    await page.getByRole("button", { name: "Usage and savings" }).click();
    // Ledger rows reach the store within a flush interval; Refresh until they are there.
    for (let i = 0; i < 50 && !(await card("Calls").textContent())?.startsWith("4"); i++) {
      await Bun.sleep(100);
      await page.getByRole("button", { name: "Refresh" }).click();
    }
    expect(await card("Calls").textContent()).toBe("4");
    expect(await card("Cache hit rate").textContent()).toContain("50.0% of calls");
    const saved = (await card("Saved").textContent())!;
    expect(Number(saved.match(/\$([\d.e-]+)/)![1])).toBeGreaterThan(0);
    const [before, after] = (await card("Tokens before → after compression").textContent())!.split("→").map((s) => Number(s.replace(/[^\d]/g, "")));
    expect(before).toBeGreaterThan(after!);
    // uPlot drew every chart (a canvas and its legend with both series).
    for (const id of ["chart-cost", "chart-tokens", "chart-calls"]) expect(await page.locator(`#${id} canvas`).count()).toBe(1);
    await expect(page.locator("#chart-cost .u-legend").textContent()).resolves.toContain("without svc");
    await expect(page.locator("#model-mix").textContent()).resolves.toContain("gpt-4o-mini-2024-07-18");
    await shot("03-usage");
    await page.getByLabel("Model", { exact: true }).selectOption(bigModel);
    await page.getByRole("button", { name: "Apply" }).click();
    // A locator, not waitForFunction: the page's CSP refuses evaluated strings.
    await page.locator("#totals .card").first().locator("dd", { hasText: /^1$/ }).waitFor();
    expect(await card("Cache hit rate").textContent()).toContain("0.0% of calls");
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
    await shot("05-playground");
  }, 30_000);
});
