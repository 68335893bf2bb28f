import uplotCss from "uplot/dist/uPlot.min.css" with { type: "text" };
import css from "./style.css" with { type: "text" };
import { api, session, type Budget, type KeyRecord } from "./api";
import { budgetsView } from "./budgets-view";
import { h } from "./dom";
import { keysView } from "./keys-view";
import { runsView } from "./runs-view";
import { usageView } from "./usage-view";

document.head.append(h("style", {}, uplotCss + css));
const main = document.getElementById("main")!;
const nav = document.getElementById("nav")!;

async function keysOfSession(): Promise<KeyRecord[]> {
  return (await api<{ data: KeyRecord[] }>("GET", "/api/keys")).data;
}

function signIn(message = "") {
  nav.hidden = true;
  const input = h("input", { id: "admin-key", type: "password", autocomplete: "off", spellcheck: "false", required: true, size: "48" });
  const error = h("p", { class: "error", role: "alert" }, message);
  const form = h(
    "form",
    { class: "card", "aria-labelledby": "signin-title" },
    h("h1", { id: "signin-title" }, "Sign in"),
    h("p", { class: "muted" }, "With an admin key of your app. It stays in this browser tab's session and is sent only as the Authorization header."),
    h("label", { for: "admin-key" }, "Admin key"),
    h("div", { class: "row" }, input, h("button", { class: "primary", type: "submit" }, "Sign in")),
    error,
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      // /api/keys answers admin keys only: a key it accepts can use every view.
      const keys = await api<{ data: KeyRecord[] }>("GET", "/api/keys", undefined, input.value.trim());
      session.set(input.value.trim());
      show("usage", keys.data);
    } catch (e) {
      error.textContent = `Sign-in refused: ${(e as Error).message}`;
    }
  });
  main.replaceChildren(form);
  input.focus();
}

async function show(view: string, keys?: KeyRecord[]) {
  nav.hidden = false;
  for (const b of nav.querySelectorAll<HTMLButtonElement>("button[data-view]"))
    b.toggleAttribute("aria-current", b.dataset.view === view), b.dataset.view === view && b.setAttribute("aria-current", "page");
  try {
    const list = keys ?? (await keysOfSession());
    // Keys are listed for the signed-in key's own app only, so any record names that app.
    const appId = list[0]?.app_id ?? "default";
    if (view === "keys") await keysView(main, appId);
    else if (view === "budgets") await budgetsView(main);
    else if (view === "runs") await runsView(main);
    else await usageView(main, list, (await api<{ data: Budget[] }>("GET", "/api/budgets")).data);
    main.focus();
  } catch (e) {
    const status = (e as { status?: number }).status;
    if (status === 401 || status === 403) {
      session.clear();
      signIn("Your key is no longer accepted; sign in again.");
    } else main.replaceChildren(h("p", { class: "error", role: "alert" }, (e as Error).message));
  }
}

nav.addEventListener("click", (ev) => {
  const b = (ev.target as HTMLElement).closest("button");
  if (!b) return;
  if (b.id === "signout") {
    session.clear();
    signIn();
  } else if (b.dataset.view) show(b.dataset.view);
});

if (session.get()) show("usage");
else signIn();
