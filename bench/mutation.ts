/**
 * Mutation testing (`npm run mutation [module ...]`): StrykerJS's command runner runs each module's own
 * unit tests (`bun test <files>`) against every mutant of that module's source, one module at a time.
 * Modules and their tests are listed in bench/mutation/modules.json. Writes each module's summary and
 * surviving mutants to bench/results/mutation/<module>.json and the table of every measured module to
 * bench/results/mutation.md.
 *
 * Stryker runs on Node (its CLI), the tests on Bun. A narrow test command per module keeps a run to
 * minutes on a 2-core machine: a mutant costs one `bun test` start (~0.2 s) plus the module's tests (up to
 * the first failure: --bail). A module whose tests include a slow one (the compressor's first call loads
 * its models: 7 s) lists its fast unit tests under `first`: they run alone before the rest, so a mutant
 * they kill never starts the slow ones (spans.ts: 9.5 s -> ~0.5 s a killed mutant).
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");
/**
 * A module: the files to mutate (Stryker's `path` or `path:from-to` line ranges), the tests that name its
 * behaviour, an optional `sample` (every `every`th block of `block` lines of one file, for a file too
 * big to run whole on this machine) and the mutants judged equivalent, each with its reason.
 */
interface Module {
  mutate: string[];
  /** Fast tests run first, in a `bun test` of their own; `tests` run only when these pass. */
  first?: string[];
  tests: string[];
  sample?: { file: string; block: number; every: number };
  equivalent?: Equivalent[];
}
/**
 * Mutants no caller can tell apart: of `file`, on a line holding `code`, by `mutator`, and when given
 * only those whose mutated source text matches the regex `original`, whose replacement is `replacement`
 * or that start at one of `columns`.
 */
interface Equivalent {
  file: string;
  code: string;
  mutator: string;
  original?: string;
  replacement?: string;
  columns?: number[];
  reason: string;
}
const MODULES = JSON.parse(readFileSync(join(import.meta.dir, "mutation", "modules.json"), "utf8")) as Record<string, Module | string>;
const RESULTS = join(ROOT, "bench", "results", "mutation");
const WORK = join(ROOT, ".tmp", "mutation");

interface Mutant {
  id: string;
  equivalent?: string;
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}
/** The part of Stryker's JSON report read here; survivorsRerunAt is this script's, set by --survivors. */
interface Report {
  files: Record<string, { source: string; mutants: Mutant[] }>;
  survivorsRerunAt?: string;
}
interface Summary {
  module: string;
  measured_at: string;
  command: string;
  files: { path: string; killed: number; timeout: number; survived: number; no_coverage: number; errors: number; score: number }[];
  killed: number;
  timeout: number;
  survived: number;
  no_coverage: number;
  errors: number;
  score: number;
  /** Of the survivors, those listed as equivalent in modules.json, and the score without them. */
  equivalent: number;
  score_without_equivalent: number;
  /** Lines mutated, when a sample of the file. */
  scope?: string;
  /** When the survivors' lines were run again (--survivors) and their verdicts merged into the run's. */
  survivors_rerun_at?: string;
  survivors: { at: string; mutator: string; replacement: string; equivalent?: string }[];
}

const names = Object.keys(MODULES).filter((k) => !k.startsWith("_"));
// --from-report: score the last run's Stryker report again (after the equivalent list changed) without running it.
const fromReport = process.argv.includes("--from-report");
/**
 * --survivors: run again only the lines of the last run's surviving mutants (after tests were added for
 * them) and merge the new verdicts into that run's report. A whole run of spans.ts took ~60 minutes at a
 * load of 25 on the 2 shared cores; its survivors stand on a few dozen lines. Refused when a mutated
 * file changed since the run: the mutants would no longer be the same.
 */
const survivorsOnly = process.argv.includes("--survivors");
const wanted = process.argv.slice(2).filter((a) => a !== "--from-report" && a !== "--survivors");
for (const w of wanted) if (!names.includes(w)) throw new Error(`unknown module '${w}'; known: ${names.join(", ")}`);
mkdirSync(RESULTS, { recursive: true });
mkdirSync(WORK, { recursive: true });

for (const name of wanted.length > 0 ? wanted : names) {
  const m = MODULES[name] as Module;
  // --bail: a mutant is killed by its first failing test, and the rest need not run (a surviving one still runs them all).
  const command = [...(m.first ? [m.first] : []), m.tests]
    .map((files) => `./node_modules/.bin/bun test --bail --timeout 60000 ${files.join(" ")}`)
    .join(" && ");
  const reportFile = join(WORK, `${name}.json`);
  const previous = survivorsOnly ? (JSON.parse(readFileSync(reportFile, "utf8")) as Report) : undefined;
  const mutate = previous ? survivorLines(previous) : [...m.mutate, ...(m.sample ? sampleRanges(m.sample) : [])];
  const runReport = previous ? join(WORK, `${name}.survivors.json`) : reportFile;
  const config = {
    $schema: "../../node_modules/@stryker-mutator/core/schema/stryker-schema.json",
    testRunner: "command",
    commandRunner: { command },
    coverageAnalysis: "off",
    mutate,
    reporters: ["progress", "clear-text", "json"],
    jsonReporter: { fileName: runReport },
    // The sandbox needs the sources, tests and shipped models; the rest only slows the copy.
    ignorePatterns: ["/bench", "/docs", "/.tmp", "/data", "/reports", "*.log"],
    tempDirName: join(".tmp", `stryker-${name}`),
    cleanTempDir: "always",
    concurrency: Number(process.env.SVC_MUTATION_CONCURRENCY ?? 1),
    // Past this (plus 1.5 x the unmutated run) a mutant counts as detected (Timeout). At a load of 20 on
    // the 2 shared cores a surviving spans.ts mutant's slow tests took over the 30 s a 20 s allowance gave,
    // and would have been counted as detected; an endless loop costs this long once.
    timeoutMS: Number(process.env.SVC_MUTATION_TIMEOUT_MS ?? 60_000),
  };
  const configFile = join(WORK, `${name}.config.json`);
  writeFileSync(configFile, JSON.stringify(config, null, 2));
  console.log(`\n== ${name}: ${mutate.join(", ")} against \`${command}\``);
  if (!fromReport) {
    const run = Bun.spawnSync(["node", join(ROOT, "node_modules", "@stryker-mutator", "core", "bin", "stryker.js"), "run", configFile], {
      cwd: ROOT,
      stdout: "inherit",
      stderr: "inherit",
    });
    if (run.exitCode !== 0) throw new Error(`stryker exited with ${run.exitCode} on ${name}`);
  }
  if (previous) writeFileSync(reportFile, JSON.stringify(merged(previous, JSON.parse(readFileSync(runReport, "utf8")) as Report)));
  const report = JSON.parse(readFileSync(reportFile, "utf8")) as Report;
  const summary = summarize(name, command, report, m.equivalent ?? []);
  if (fromReport) summary.measured_at = statSync(reportFile).mtime.toISOString();
  // A re-run of the survivors keeps the whole run's time; its own is survivors_rerun_at.
  if (previous) summary.measured_at = (JSON.parse(readFileSync(join(RESULTS, `${name}.json`), "utf8")) as Summary).measured_at;
  if (m.sample) summary.scope = [...m.mutate, ...sampleRanges(m.sample)].join(" ");
  if (report.survivorsRerunAt) summary.survivors_rerun_at = report.survivorsRerunAt;
  writeFileSync(join(RESULTS, `${name}.json`), JSON.stringify(summary, null, 2) + "\n");
  console.log(
    `${name}: ${summary.score.toFixed(1)}% killed (${summary.killed + summary.timeout} of ${summary.killed + summary.timeout + summary.survived + summary.no_coverage}); ${summary.score_without_equivalent.toFixed(1)}% without the ${summary.equivalent} listed as equivalent`,
  );
  // After each module, so a run stopped part-way still leaves a table that matches the summaries.
  writeTable();
}

/** The report's files must be the ones on disk: a mutant is known by its place and its replacement. */
function survivorLines(report: Report): string[] {
  const ranges = new Set<string>();
  for (const [path, f] of Object.entries(report.files)) {
    if (readFileSync(join(ROOT, path), "utf8") !== f.source) throw new Error(`${path} changed since the last run: run the module whole`);
    for (const x of f.mutants) if (x.status === "Survived" || x.status === "NoCoverage") ranges.add(`${path}:${x.location.start.line}-${x.location.end.line}`);
  }
  return [...ranges];
}

/** The first run's report with the verdicts of the re-run's mutants (the same file, place, mutator and replacement). */
function merged(first: Report, rerun: Report): Report {
  const key = (path: string, x: Mutant) => `${path}:${JSON.stringify(x.location)}:${x.mutatorName}:${x.replacement ?? ""}`;
  const verdicts = new Map<string, string>();
  for (const [path, f] of Object.entries(rerun.files)) for (const x of f.mutants) verdicts.set(key(path, x), x.status);
  for (const [path, f] of Object.entries(first.files)) for (const x of f.mutants) x.status = verdicts.get(key(path, x)) ?? x.status;
  return { ...first, survivorsRerunAt: new Date().toISOString() };
}

/** `file:a-b` ranges of every `every`th block of `block` lines, from the first: a systematic sample of the file's lines. */
function sampleRanges(s: { file: string; block: number; every: number }): string[] {
  const lines = readFileSync(join(ROOT, s.file), "utf8").split("\n").length;
  const out: string[] = [];
  for (let from = 1; from <= lines; from += s.block * s.every) out.push(`${s.file}:${from}-${Math.min(from + s.block - 1, lines)}`);
  return out;
}

/** The reason a surviving mutant is listed as equivalent, if it is. Stryker's lines and columns count from 1. */
function equivalentReason(path: string, x: Mutant, equivalents: Equivalent[]): string | undefined {
  const lines = readFileSync(join(ROOT, path), "utf8").split("\n");
  const { start, end } = x.location;
  const line = lines[start.line - 1] ?? "";
  const original =
    start.line === end.line
      ? line.slice(start.column - 1, end.column - 1)
      : [line.slice(start.column - 1), ...lines.slice(start.line, end.line - 1), (lines[end.line - 1] ?? "").slice(0, end.column - 1)].join("\n");
  return equivalents.find(
    (e) =>
      e.file === path &&
      e.mutator === x.mutatorName &&
      line.includes(e.code) &&
      (e.original === undefined || new RegExp(e.original, "s").test(original)) &&
      (e.replacement === undefined || e.replacement === x.replacement) &&
      (e.columns === undefined || e.columns.includes(start.column)),
  )?.reason;
}

function summarize(module: string, command: string, report: Report, equivalents: Equivalent[]): Summary {
  const s: Summary = {
    module,
    measured_at: new Date().toISOString(),
    command,
    files: [],
    killed: 0,
    timeout: 0,
    survived: 0,
    no_coverage: 0,
    errors: 0,
    score: 0,
    equivalent: 0,
    score_without_equivalent: 0,
    survivors: [],
  };
  for (const [path, f] of Object.entries(report.files)) {
    const count = (status: string) => f.mutants.filter((x) => x.status === status).length;
    const file = {
      path,
      killed: count("Killed"),
      timeout: count("Timeout"),
      survived: count("Survived"),
      no_coverage: count("NoCoverage"),
      errors: count("CompileError") + count("RuntimeError"),
      score: 0,
    };
    file.score = score(file);
    s.files.push(file);
    for (const k of ["killed", "timeout", "survived", "no_coverage", "errors"] as const) s[k] += file[k];
    for (const x of f.mutants)
      if (x.status === "Survived" || x.status === "NoCoverage") {
        const equivalent = equivalentReason(path, x, equivalents);
        if (equivalent) s.equivalent++;
        s.survivors.push({
          at: `${path}:${x.location.start.line}:${x.location.start.column}`,
          mutator: x.mutatorName,
          replacement: x.replacement ?? "",
          ...(equivalent && { equivalent }),
        });
      }
  }
  s.score = score(s);
  // Equivalent mutants are not valid mutants: no test can kill them.
  s.score_without_equivalent = score({ ...s, survived: s.survived + s.no_coverage - s.equivalent, no_coverage: 0 });
  return s;
}

/** Stryker's mutation score: detected (killed or timed out) over all valid mutants; errors are not valid mutants. */
function score(c: { killed: number; timeout: number; survived: number; no_coverage: number }): number {
  const valid = c.killed + c.timeout + c.survived + c.no_coverage;
  return valid === 0 ? 100 : (100 * (c.killed + c.timeout)) / valid;
}

function writeTable(): void {
  const rows = readdirSync(RESULTS)
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(readFileSync(join(RESULTS, f), "utf8")) as Summary)
    .sort((a, b) => names.indexOf(a.module) - names.indexOf(b.module));
  const lines = [
    "# Mutation scores",
    "",
    "StrykerJS 9.6.1 (command runner over `bun test`), one module at a time: `npm run mutation [module ...]`",
    "(modules and their test files: bench/mutation/modules.json). Score = (killed + timed out) / valid mutants.",
    "Surviving mutants of each module are listed in bench/results/mutation/<module>.json.",
    "",
    "Mutants listed as equivalent in modules.json (with the reason each cannot be told apart) are counted in the",
    "survivors and left out of the second score. A sampled module mutated only the lines named under it.",
    '"survivors re-run": after tests were added, `npm run mutation -- <module> --survivors` ran the lines of',
    "the whole run's survivors again and its verdicts replaced theirs.",
    "",
    "| module | file | killed | timeout | survived | no coverage | score | of which equivalent | score without them | measured at / test command |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
  ];
  for (const r of rows) {
    for (const f of r.files)
      lines.push(
        `| ${r.module} | ${f.path} | ${f.killed} | ${f.timeout} | ${f.survived} | ${f.no_coverage} | ${f.score.toFixed(1)}% | | | ${r.measured_at.slice(0, 16)}Z${r.survivors_rerun_at ? `, survivors re-run ${r.survivors_rerun_at.slice(11, 16)}Z` : ""} |`,
      );
    const equivalent = r.equivalent ?? 0;
    lines.push(
      `| **${r.module}** | all | ${r.killed} | ${r.timeout} | ${r.survived} | ${r.no_coverage} | **${r.score.toFixed(1)}%** | ${equivalent} | ${(r.score_without_equivalent ?? r.score).toFixed(1)}% | \`${r.command.replaceAll("./node_modules/.bin/", "")}\` |`,
    );
    if (r.scope) lines.push(`| | sampled lines: ${r.scope.replace(/src\/[^ ]*?:/g, "")} | | | | | | | | |`);
  }
  lines.push("");
  writeFileSync(join(ROOT, "bench", "results", "mutation.md"), lines.join("\n"));
}
