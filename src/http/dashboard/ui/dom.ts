export { int, pct, usd, when } from "./format";
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

/** A table with a header row and one row per record; `cells` gives a record's cells, numbers right-aligned by `num`. */
export function table<T>(attrs: Attrs, columns: { label: string; num?: boolean; cell: (r: T) => Child }[], records: T[]): HTMLTableElement {
  return h(
    "table",
    attrs,
    h("thead", {}, h("tr", {}, ...columns.map((c) => h("th", { scope: "col", class: c.num ? "num" : undefined }, c.label)))),
    h("tbody", {}, ...records.map((r) => h("tr", {}, ...columns.map((c) => h("td", { class: c.num ? "num" : undefined }, c.cell(r)))))),
  );
}
