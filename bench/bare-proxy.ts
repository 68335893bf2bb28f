/**
 * The floor every gateway is measured against: a Bun server that forwards each request to the
 * upstream with fetch and hands back the upstream's status, content type and body (streamed through
 * as it arrives). No auth, no parsing, no logging: the least any gateway must do.
 *
 *   bun bench/bare-proxy.ts --upstream http://127.0.0.1:PORT [--port 0]
 *
 * prints one JSON line {"url": ...} when it listens.
 */
import { parseArgs } from "node:util";

const { values } = parseArgs({ args: process.argv.slice(2), options: { upstream: { type: "string" }, port: { type: "string", default: "0" } } });
if (!values.upstream) {
  process.stderr.write("usage: bun bench/bare-proxy.ts --upstream http://host:port [--port N]\n");
  process.exit(2);
}
const upstream = new URL(values.upstream).origin;

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: Number(values.port),
  async fetch(req) {
    const url = new URL(req.url);
    const headers = new Headers(req.headers);
    headers.delete("host");
    const res = await fetch(upstream + url.pathname + url.search, {
      method: req.method,
      headers,
      body: req.method === "GET" || req.method === "HEAD" ? undefined : await req.arrayBuffer(),
    });
    return new Response(res.body, { status: res.status, headers: { "content-type": res.headers.get("content-type") ?? "application/json" } });
  },
});

console.log(JSON.stringify({ url: server.url.origin }));
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    server.stop(true);
    process.exit(0);
  });
}
