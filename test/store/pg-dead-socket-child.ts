/**
 * Run by pg-dead-socket.test.ts as a process of its own: PostgreSQL ends the backend under a
 * transaction, so the driver's automatic ROLLBACK is written after its socket is gone. Prints one
 * JSON line: how the transaction ended and whether the pool answers a query afterwards.
 */
import postgres from "postgres";

const url = process.env.PG_URL!;
const sql = postgres(url, { max: 2, onnotice: () => undefined });
const killer = postgres(url, { max: 1, onnotice: () => undefined });
let pid: number | undefined;
const tx = sql.begin(async (t) => {
  const [row] = await t<{ pid: number }[]>`select pg_backend_pid() as pid`;
  pid = row!.pid;
  await t`select pg_sleep(5)`;
});
while (pid === undefined) await Bun.sleep(10);
await killer`select pg_terminate_backend(${pid})`;
const ended = await tx.then(
  () => "committed",
  (e: { code?: string }) => e.code ?? String(e),
);
// The immediate that flushed the ROLLBACK runs after the rejection; give it its turn.
await Bun.sleep(200);
const after = await Promise.race([sql<{ one: number }[]>`select 1 as one`.then((r) => r[0]!.one), Bun.sleep(5_000).then(() => "no answer in 5 s")]);
console.log(JSON.stringify({ ended, after }));
await sql.end({ timeout: 1 });
await killer.end({ timeout: 1 });
