import { join } from "node:path";

export type BrowserEntry = "main" | "playground";
const built = new Map<BrowserEntry, Promise<string>>();

/**
 * A page's script: `ui/<entry>.ts` and what it imports (uPlot, jsdiff, stylesheets from
 * node_modules) bundled by Bun's own bundler from the package's files, once per process on the first
 * request (about 50 ms), then served from memory. Nothing is fetched from the network, at build or at
 * run time, and the browser loads one same-origin file.
 */
export function browserScript(entry: BrowserEntry): Promise<string> {
  let out = built.get(entry);
  if (!out) {
    out = Bun.build({ entrypoints: [join(import.meta.dir, "ui", `${entry}.ts`)], target: "browser", minify: true }).then(async (r) => {
      if (!r.success || !r.outputs[0]) throw new Error(`${entry} bundle failed: ${r.logs.map(String).join("; ")}`);
      return r.outputs[0].text();
    });
    built.set(entry, out);
    out.catch(() => built.delete(entry));
  }
  return out;
}

export async function scriptResponse(entry: BrowserEntry): Promise<Response> {
  return new Response(await browserScript(entry), { headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-cache" } });
}
