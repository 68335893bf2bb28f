/**
 * A TCP port on 127.0.0.1 that nothing uses now, for a server a test starts itself (its own Redis or
 * PostgreSQL). The kernel picks it; a random port of a fixed range could be in use already (the
 * ephemeral range takes in 32768-60999, where every outgoing connection gets its local port), and
 * then the server, started as a daemon, failed to bind after its start command had succeeded.
 */
export function freePort(): number {
  const listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = listener.port;
  listener.stop(true);
  return port;
}
