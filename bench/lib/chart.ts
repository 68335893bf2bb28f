import { TARGET_LABELS, type BenchResults, type TargetName } from "./results";

interface Series {
  name: string;
  color: string;
}

interface Panel {
  title: string;
  unit: string;
  series: Series[];
  rows: { label: string; values: (number | undefined)[] }[];
}

const ROW_H = 14;
const LABEL_W = 250;
const BAR_W = 330;
const FONT = 'font-family="system-ui, sans-serif"';

function esc(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function fmt(v: number): string {
  return v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2);
}

/** One horizontal grouped-bar panel at (x, y); returns its SVG and height. */
function panel(p: Panel, x: number, y: number): { svg: string; height: number } {
  const max = Math.max(1e-9, ...p.rows.flatMap((r) => r.values.filter((v): v is number => v !== undefined && Number.isFinite(v))));
  const parts = [`<text x="${x}" y="${y + 14}" ${FONT} font-size="14" font-weight="bold">${esc(p.title)} (${esc(p.unit)})</text>`];
  p.series.forEach((s, i) => {
    const lx = x + LABEL_W + i * 110;
    parts.push(
      `<rect x="${lx}" y="${y + 22}" width="10" height="10" fill="${s.color}"/><text x="${lx + 14}" y="${y + 31}" ${FONT} font-size="11">${esc(s.name)}</text>`,
    );
  });
  let cy = y + 42;
  for (const row of p.rows) {
    const groupH = ROW_H * p.series.length;
    parts.push(`<text x="${x + LABEL_W - 6}" y="${cy + groupH / 2 + 4}" ${FONT} font-size="11" text-anchor="end">${esc(row.label)}</text>`);
    row.values.forEach((v, i) => {
      const by = cy + i * ROW_H;
      if (v === undefined || !Number.isFinite(v)) {
        parts.push(`<text x="${x + LABEL_W + 4}" y="${by + 10}" ${FONT} font-size="10" fill="#888">not measured</text>`);
        return;
      }
      const w = Math.max(1, (v / max) * BAR_W);
      parts.push(`<rect x="${x + LABEL_W}" y="${by + 1}" width="${w.toFixed(1)}" height="${ROW_H - 3}" fill="${p.series[i]!.color}"/>`);
      parts.push(`<text x="${x + LABEL_W + w + 4}" y="${by + 10}" ${FONT} font-size="10">${fmt(v)}</text>`);
    });
    cy += groupH + 6;
  }
  return { svg: parts.join("\n"), height: cy - y + 10 };
}

const ORDER: TargetName[] = ["mock", "proxy", "relay", "miss", "hit", "portkey", "relayInfo"];

/** Latency percentiles, throughput and time to first token per configuration and peer, as one SVG. */
export function renderChart(r: BenchResults): string {
  const names = ORDER.filter((n) => r.latency[n] || r.throughput[n]);
  const panels: Panel[] = [
    {
      title: "Latency at concurrency 1",
      unit: "µs",
      series: [
        { name: "p50", color: "#4e79a7" },
        { name: "p99", color: "#f28e2b" },
      ],
      rows: names.map((n) => ({ label: TARGET_LABELS[n], values: [r.latency[n] && r.latency[n]!.p50 * 1000, r.latency[n] && r.latency[n]!.p99 * 1000] })),
    },
    {
      title: "Throughput at 32 connections",
      unit: "requests/s",
      series: [{ name: "req/s", color: "#59a14f" }],
      rows: names.map((n) => ({ label: TARGET_LABELS[n], values: [r.throughput[n]?.rps] })),
    },
    {
      title: "Latency under load, 32 connections",
      unit: "µs",
      series: [
        { name: "p50", color: "#4e79a7" },
        { name: "p99", color: "#f28e2b" },
      ],
      rows: names.map((n) => ({ label: TARGET_LABELS[n], values: [r.throughput[n]?.p50Us, r.throughput[n]?.p99Us] })),
    },
    {
      title: "Time to first token, streaming",
      unit: "ms",
      series: [
        { name: "p50", color: "#4e79a7" },
        { name: "p99", color: "#f28e2b" },
      ],
      rows: ORDER.filter((n) => r.ttft[n]).map((n) => ({ label: TARGET_LABELS[n], values: [r.ttft[n]!.ttftP50Ms, r.ttft[n]!.ttftP99Ms] })),
    },
  ];
  const width = LABEL_W + BAR_W + 80;
  let y = 50;
  const body: string[] = [];
  for (const p of panels) {
    const out = panel(p, 10, y);
    body.push(out.svg);
    y += out.height + 10;
  }
  const c = r.context;
  const head = [
    `<text x="10" y="20" ${FONT} font-size="16" font-weight="bold">svc latency overhead: ${esc(c.date.slice(0, 10))}, commit ${esc(c.commit)}${c.dirty ? "+" : ""}</text>`,
    `<text x="10" y="38" ${FONT} font-size="11" fill="#555">${esc(`${c.cores} cores ${c.cpuModel}, ${c.memoryGiB.toFixed(0)} GiB; ${r.settings.pinning}`)}</text>`,
  ];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${y}" viewBox="0 0 ${width} ${y}">\n<rect width="100%" height="100%" fill="white"/>\n${head.join("\n")}\n${body.join("\n")}\n</svg>\n`;
}
