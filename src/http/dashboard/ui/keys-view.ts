import { api, type KeyRecord } from "./api";
import { h, when } from "./dom";

/** Settings → API Keys: create (the value shown once), list and revoke the keys of the signed-in key's app. */
export async function keysView(root: HTMLElement, appId: string): Promise<void> {
  const status = h("p", { role: "status", "aria-live": "polite" });
  const secretSlot = h("div");
  const list = h("div");
  const name = h("input", { id: "key-name", required: true, maxlength: "200", autocomplete: "off" });
  const type = h("select", { id: "key-type" }, h("option", { value: "live" }, "live"), h("option", { value: "test" }, "test"));
  const plan = h("input", { id: "key-plan", placeholder: "default", autocomplete: "off" });
  const scope = (s: string, checked: boolean) => h("label", {}, h("input", { type: "checkbox", name: "scope", value: s, checked }), " " + s);
  const form = h(
    "form",
    { class: "card", "aria-labelledby": "create-title" },
    h("h2", { id: "create-title" }, "Create a key"),
    h(
      "div",
      { class: "row" },
      h("div", {}, h("label", { for: "key-name" }, "Name"), name),
      h("div", {}, h("label", { for: "key-type" }, "Type"), type),
      h("div", {}, h("label", { for: "key-plan" }, "Plan"), plan),
      h("fieldset", {}, h("legend", {}, "Scopes"), scope("complete", true), scope("admin", false)),
      h("button", { class: "primary", type: "submit" }, "Create key"),
    ),
  );

  const refresh = async () => {
    const { data } = await api<{ data: KeyRecord[] }>("GET", "/api/keys");
    const rows = data.map((k) =>
      h(
        "tr",
        { "data-key-id": k.id },
        h("td", {}, k.name),
        h("td", {}, h("code", {}, `${k.prefix}…${k.last4}`)),
        h("td", {}, k.type),
        h("td", {}, k.plan),
        h("td", {}, k.scopes.join(", ")),
        h("td", {}, k.status),
        h("td", {}, when(k.created_at)),
        h("td", {}, when(k.last_used_at)),
        h(
          "td",
          {},
          k.status === "active" &&
            h("button", { class: "danger", type: "button", "aria-label": `Revoke key ${k.name} (${k.prefix}…${k.last4})`, onclick: () => revoke(k) }, "Revoke"),
        ),
      ),
    );
    list.replaceChildren(
      h(
        "table",
        { "aria-label": "API keys" },
        h(
          "thead",
          {},
          h("tr", {}, ...["Name", "Key", "Type", "Plan", "Scopes", "Status", "Created", "Last used", ""].map((c) => h("th", { scope: "col" }, c))),
        ),
        h("tbody", {}, ...rows),
      ),
    );
  };

  const revoke = async (k: KeyRecord) => {
    if (!confirm(`Revoke "${k.name}"? Calls with it are refused from now on.`)) return;
    try {
      await api("DELETE", `/api/keys/${encodeURIComponent(k.id)}`);
      await refresh();
      status.textContent = `Revoked ${k.name}.`;
    } catch (e) {
      status.textContent = (e as Error).message;
    }
  };

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    status.textContent = "";
    const scopes = [...form.querySelectorAll<HTMLInputElement>("input[name=scope]:checked")].map((i) => i.value);
    try {
      const created = await api<KeyRecord>("POST", "/api/keys", {
        name: name.value,
        app_id: appId,
        type: type.value,
        scopes,
        ...(plan.value && { plan: plan.value }),
      });
      showSecret(created);
      form.reset();
      await refresh();
    } catch (e) {
      status.textContent = (e as Error).message;
    }
  });

  // The value exists only in this box until it is dismissed; nothing else keeps it.
  const showSecret = (k: KeyRecord) => {
    const code = h("code", { id: "new-key-value" }, k.key ?? "");
    const copy = h("button", { class: "plain", type: "button" }, "Copy");
    copy.addEventListener("click", async () => {
      await navigator.clipboard.writeText(k.key ?? "").then(
        () => (copy.textContent = "Copied"),
        () => (copy.textContent = "Copy failed: select the text"),
      );
    });
    const done = h("button", { class: "primary", type: "button", onclick: () => secretSlot.replaceChildren() }, "I have stored it");
    secretSlot.replaceChildren(
      h(
        "div",
        { class: "secret", role: "alert" },
        h("strong", {}, `Key "${k.name}" created. Copy it now: this is the only time it is shown.`),
        h("p", {}, "svc keeps only a hash of it; a lost key cannot be recovered, only revoked and replaced."),
        code,
        h("div", { class: "row" }, copy, done),
      ),
    );
    done.focus();
  };

  root.replaceChildren(h("h1", {}, "Settings → API Keys"), form, secretSlot, status, h("h2", {}, "Keys of app ", h("code", {}, appId)), list);
  await refresh();
}
