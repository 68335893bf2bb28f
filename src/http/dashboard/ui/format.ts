// Number and time formats of the page, free of the DOM so tests hold the page's text against the API's figures.
// A call on a cheap model costs millionths of a dollar: small sums keep three significant digits.
export const usd = (x: number) => "$" + (x === 0 ? "0" : Math.abs(x) >= 1 ? x.toFixed(2) : Math.abs(x) >= 0.01 ? x.toFixed(4) : x.toPrecision(3));
export const int = (x: number) => Math.round(x).toLocaleString("en-US");
export const pct = (x: number) => (x * 100).toFixed(1) + "%";
export const when = (iso: string | null) => (iso ? iso.replace("T", " ").slice(0, 16) + " UTC" : "never");
