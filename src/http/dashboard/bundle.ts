import { join } from "node:path";

let built: Promise<string> | undefined;

/**
 * The dashboard's script: `ui/main.ts` and what it imports (uPlot and its stylesheet from
 * node_modules) bundled by Bun's own bundler from the package's files, once per process on the first
 * request (about 100 ms), then served from memory. Nothing is fetched from the network, at build or at
 * run time, and the browser loads one same-origin file.
 */
export function dashboardScript(): Promise<string> {
  built ??= Bun.build({ entrypoints: [join(import.meta.dir, "ui", "main.ts")], target: "browser", minify: true }).then(async (out) => {
    if (!out.success || !out.outputs[0]) throw new Error(`dashboard bundle failed: ${out.logs.map(String).join("; ")}`);
    return out.outputs[0].text();
  });
  built.catch(() => (built = undefined));
  return built;
}
