import { expect, test } from "bun:test";
import { join } from "node:path";
import { BUDGET_PERIODS } from "../../src/accounting/budgets";
import { ERROR_CODES } from "../../src/core/errors";
import { USAGE_GROUPS } from "../../src/store/usage-query";
import { waitForKey } from "../completions/support";
import { Options } from "../../src/http/validate/completion-request";
import { clientRigPerFile, MAX_BODY_BYTES, MODELS, TEST_KEY_DAILY_CALLS, TINY_PLAN } from "./rig";
import { fullestMeta } from "./server-fields";

const PYTHON_DIR = join(import.meta.dir, "..", "..", "clients", "python");
const python3 = Bun.which("python3");
if (!python3) console.log("skipping the Python client's tests: python3 is not on PATH");

// The rig is started only when python3 exists: its hooks belong to this file alone.
const rig = python3 ? clientRigPerFile() : undefined;

test.skipIf(!python3)(
  "the Python client's unittest suite passes against a real svc, none skipped",
  async () => {
    const serverFields = {
      error_codes: Object.fromEntries(Object.entries(ERROR_CODES).map(([code, e]) => [code, e.status])),
      option_fields: Object.keys(Options.properties),
      meta_fields: Object.keys(fullestMeta()),
      usage_groups: USAGE_GROUPS,
      budget_periods: BUDGET_PERIODS,
    };
    // The usage test's own app, so its totals are exactly its calls.
    const usageAdmin = await rig!.gw.cliKey(["--admin", "--app", "py-usage-app"]);
    await waitForKey(rig!.gw.url, usageAdmin.key);
    const proc = Bun.spawn([python3!, "-m", "unittest", "discover", "-s", "tests", "-v"], {
      cwd: PYTHON_DIR,
      env: {
        ...process.env,
        PYTHONDONTWRITEBYTECODE: "1",
        SVC_API_KEY: "",
        SVC_TEST_BASE_URL: rig!.gw.url,
        SVC_TEST_ADMIN_KEY: rig!.admin.key,
        SVC_TEST_APP: rig!.admin.app_id,
        SVC_TEST_USAGE_ADMIN_KEY: usageAdmin.key,
        SVC_TEST_USAGE_KEY_ID: usageAdmin.id,
        SVC_TEST_USAGE_APP: usageAdmin.app_id,
        SVC_TEST_MODELS: JSON.stringify(MODELS),
        SVC_TEST_KEY_DAILY_CALLS: String(TEST_KEY_DAILY_CALLS),
        SVC_TEST_TINY_PLAN: TINY_PLAN,
        SVC_TEST_MAX_BODY_BYTES: String(MAX_BODY_BYTES),
        SVC_TEST_SERVER_FIELDS: JSON.stringify(serverFields),
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    const report = `${stdout}${stderr}`;
    if (code !== 0) console.log(report);
    expect(code).toBe(0);
    expect(report).toMatch(/\nOK\s*$/);
    expect(report).not.toContain("skipped");
    const ran = Number(/Ran (\d+) tests?/.exec(report)?.[1] ?? 0);
    expect(ran).toBeGreaterThanOrEqual(30);
  },
  // pip installs the package three times (each ~9 s at a load average of 19 on this 2-core machine).
  300_000,
);
