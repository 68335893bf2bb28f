/**
 * Runs the drop-in conformance suite and writes its outcome into README.md as the compatibility table,
 * between the compat-table markers: `bun test/dropin/compat-table.ts` (add --check to fail instead of
 * writing when the README's table differs from a fresh run).
 */
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");
const README = join(ROOT, "README.md");
const START = "<!-- compat-table:start (bun test/dropin/compat-table.ts writes this) -->";
const END = "<!-- compat-table:end -->";
const PROVIDERS: Record<string, string> = { openai: "OpenAI", anthropic: "Anthropic", gemini: "Gemini" };

type Outcome = "pass" | "fail" | "todo";

async function run(): Promise<Map<string, Map<string, Outcome>>> {
  const dir = mkdtempSync(join(tmpdir(), "svc-compat-"));
  const out = join(dir, "junit.xml");
  try {
    const proc = Bun.spawn(
      [process.execPath, "test", "--timeout", "60000", "test/dropin/conformance.test.ts", "--reporter=junit", `--reporter-outfile=${out}`],
      { cwd: ROOT, stdout: "ignore", stderr: "inherit" },
    );
    await proc.exited;
    return parse(readFileSync(out, "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Rows "<feature> (<provider>)" × columns "<client>" from the JUnit report's nested suites. */
function parse(xml: string): Map<string, Map<string, Outcome>> {
  const rows = new Map<string, Map<string, Outcome>>();
  const stack: string[] = [];
  const unescape = (s: string) =>
    s
      .replace(/&gt;/g, ">")
      .replace(/&lt;/g, "<")
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, "&");
  for (const m of xml.matchAll(/<testsuite name="([^"]*)"[^>]*>|<\/testsuite>|<testcase name="([^"]*)"[^>]*?(\/>|>([\s\S]*?)<\/testcase>)/g)) {
    if (m[0].startsWith("</testsuite")) stack.pop();
    else if (m[1] !== undefined) stack.push(unescape(m[1]));
    else {
      const [client, provider] = stack.slice(-2);
      const body = m[4] ?? "";
      const outcome: Outcome = body.includes("<failure") ? "fail" : body.includes("<skipped") ? "todo" : "pass";
      const row = `${unescape(m[2]!)} (${PROVIDERS[provider!] ?? provider})`;
      if (!rows.has(row)) rows.set(row, new Map());
      rows.get(row)!.set(client!, outcome);
    }
  }
  return rows;
}

function table(rows: Map<string, Map<string, Outcome>>): string {
  const clients = [...new Set([...rows.values()].flatMap((r) => [...r.keys()]))];
  const mark = { pass: "✓", fail: "✗", todo: "not yet" } as const;
  const lines = [`| feature (upstream) | ${clients.join(" | ")} |`, `|---|${clients.map(() => "---").join("|")}|`];
  for (const [row, cells] of rows) lines.push(`| ${row} | ${clients.map((c) => mark[cells.get(c) ?? "todo"]).join(" | ")} |`);
  return lines.join("\n");
}

const rows = await run();
const fresh = `${START}\n${table(rows)}\n${END}`;
const readme = readFileSync(README, "utf8");
const at = readme.indexOf(START);
const end = readme.indexOf(END);
if (at < 0 || end < 0) throw new Error(`README.md has no compat-table markers (${START} ... ${END})`);
const current = readme.slice(at, end + END.length);
if (process.argv.includes("--check")) {
  if (current !== fresh) {
    console.error("README's compatibility table differs from a fresh run of the suite; run bun test/dropin/compat-table.ts");
    process.exit(1);
  }
} else {
  writeFileSync(README, readme.slice(0, at) + fresh + readme.slice(end + END.length));
  console.log(fresh);
}
