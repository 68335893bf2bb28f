import { Elysia } from "elysia";
import { heapStats } from "bun:jsc";
import { adminKeyOf, type AuthServices } from "../auth";

/** What GET /debug/heap answers: the event loop's heap after a full collection, and the process's RSS. */
export interface HeapReport {
  /** Bytes of JavaScript objects still live after the collection (bun:jsc heapStats().heapSize). */
  heap_bytes: number;
  heap_objects: number;
  /** Resident set of the whole process (workers, native libraries, allocator caches included). */
  rss_bytes: number;
  /** How long the collection paused the event loop. */
  gc_ms: number;
}

/**
 * GET /debug/heap, admin keys, only with SVC_DEBUG_HEAP: a heap that keeps growing after full
 * collections is a leak, where RSS sampled under load saws up and down by tens of MiB between
 * collections and cannot tell a leak of a few MiB per minute from noise. The benchmark's soak reads it.
 */
export function debugRoutes(gw: AuthServices) {
  return new Elysia().get("/debug/heap", ({ request }) => {
    adminKeyOf(gw, request, "/debug/heap");
    const t0 = performance.now();
    Bun.gc(true);
    const gcMs = performance.now() - t0;
    const heap = heapStats();
    const report: HeapReport = { heap_bytes: heap.heapSize, heap_objects: heap.objectCount, rss_bytes: process.memoryUsage.rss(), gc_ms: gcMs };
    return Response.json(report);
  });
}
