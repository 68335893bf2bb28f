/**
 * Planted bugs (`npm run planted-bugs [name ...]`, issue 33): each bug of bench/mutation/planted-bugs.json
 * is written into a copy of the code, one at a time, and the tests that name the behaviour it breaks are
 * run there; the bug is caught when they fail. The same tests are first run on the unchanged copy and
 * must pass, or a failure would prove nothing. Writes bench/results/planted-bugs.md.
 *
 * A copy rather than the worktree, so a run stopped part-way never leaves a bug behind in the sources.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

interface PlantedBug {
  name: string;
  /** The behaviour the bug breaks, as the issue names it. */
  breaks: string;
  file: string;
  /** Exact text of `file`, found exactly once, and what the bug writes instead. */
  from: string;
  to: string;
  tests: string[];
}

const ROOT = join(import.meta.dir, "..");
const BUGS = JSON.parse(readFileSync(join(import.meta.dir, "mutation", "planted-bugs.json"), "utf8")).bugs as PlantedBug[];
const wanted = process.argv.slice(2);
for (const w of wanted) if (!BUGS.some((b) => b.name === w)) throw new Error(`unknown bug '${w}'; known: ${BUGS.map((b) => b.name).join(", ")}`);
const bugs = wanted.length > 0 ? BUGS.filter((b) => wanted.includes(b.name)) : BUGS;

// No biome.json in the copy: a second root configuration under the project stops `biome check .` while a run is going.
// The copy sits two levels down so that its ../shared (the shared data the tests look for beside the project) can be linked.
const BOX = join(ROOT, ".tmp", "planted");
const COPY = join(BOX, "svc");
rmSync(BOX, { recursive: true, force: true });
mkdirSync(COPY, { recursive: true });
for (const entry of ["src", "test", "models", "workers", "clients", "package.json", "tsconfig.json", "bunfig.toml"])
  if (existsSync(join(ROOT, entry))) cpSync(join(ROOT, entry), join(COPY, entry), { recursive: true });
symlinkSync(join(ROOT, "node_modules"), join(COPY, "node_modules"));
if (existsSync(join(ROOT, "..", "shared"))) symlinkSync(realpathSync(join(ROOT, "..", "shared")), join(BOX, "shared"));

const commit = Bun.spawnSync(["git", "rev-parse", "--short", "HEAD"], { cwd: ROOT }).stdout.toString().trim();
const dirty = Bun.spawnSync(["git", "status", "--porcelain", "src", "test"], { cwd: ROOT }).stdout.toString().trim() !== "";

function runTests(tests: string[]): { ok: boolean; summary: string } {
  const run = Bun.spawnSync([join(ROOT, "node_modules", ".bin", "bun"), "test", "--timeout", "60000", ...tests], {
    cwd: COPY,
    stdout: "pipe",
    stderr: "pipe",
  });
  const out = run.stdout.toString() + run.stderr.toString();
  const count = (what: string) => Number(out.match(new RegExp(`^\\s*(\\d+) ${what}$`, "m"))?.[1] ?? 0);
  return { ok: run.exitCode === 0, summary: `${count("pass")} pass, ${count("fail")} fail` };
}

const rows: string[] = [];
let missed = 0;
for (const bug of bugs) {
  const path = join(COPY, bug.file);
  const source = readFileSync(path, "utf8");
  const at = source.indexOf(bug.from);
  if (at === -1 || source.indexOf(bug.from, at + 1) !== -1) throw new Error(`${bug.name}: the text to replace is not in ${bug.file} exactly once`);
  const clean = runTests(bug.tests);
  if (!clean.ok) throw new Error(`${bug.name}: ${bug.tests.join(" ")} fail without the bug (${clean.summary}); fix them first`);
  writeFileSync(path, source.slice(0, at) + bug.to + source.slice(at + bug.from.length));
  const planted = runTests(bug.tests);
  writeFileSync(path, source);
  if (planted.ok) missed++;
  const line = `| ${bug.name} | ${bug.breaks} | \`${bug.file}\` | ${bug.tests.map((t) => `\`${t}\``).join(" ")} | ${clean.summary} | ${planted.summary} | ${planted.ok ? "**no**" : "yes"} |`;
  console.log(line);
  rows.push(line);
}
rmSync(BOX, { recursive: true, force: true });

if (wanted.length === 0) {
  const table = [
    "# Planted bugs",
    "",
    `Each bug of bench/mutation/planted-bugs.json written into a copy of ${commit}${dirty ? " (with uncommitted changes to src/ or test/)" : ""}, one at a time;`,
    "caught when the tests named for it fail with the bug and pass without it. `npm run planted-bugs`,",
    `${new Date().toISOString().slice(0, 16)}Z.`,
    "",
    "| bug | breaks | file | tests | without the bug | with the bug | caught |",
    "|---|---|---|---|---|---|---|",
    ...rows,
    "",
  ];
  writeFileSync(join(ROOT, "bench", "results", "planted-bugs.md"), table.join("\n"));
}
console.log(`${bugs.length - missed} of ${bugs.length} planted bugs caught`);
if (missed > 0) process.exit(1);
