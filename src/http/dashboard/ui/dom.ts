type Attrs = Record<string, string | boolean | EventListener | undefined>;
type Child = Node | string | number | null | undefined | false;

/** One element with attributes (on* are listeners, booleans toggle) and children as text or nodes; text is never parsed as HTML. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(typeof c === "number" ? String(c) : c);
  return el;
}

// A call on a cheap model costs millionths of a dollar: small sums keep three significant digits.
export const usd = (x: number) => "$" + (x === 0 ? "0" : Math.abs(x) >= 1 ? x.toFixed(2) : Math.abs(x) >= 0.01 ? x.toFixed(4) : x.toPrecision(3));
export const int = (x: number) => Math.round(x).toLocaleString("en-US");
export const pct = (x: number) => (x * 100).toFixed(1) + "%";
export const when = (iso: string | null) => (iso ? iso.replace("T", " ").slice(0, 16) + " UTC" : "never");
