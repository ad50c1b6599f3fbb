// The models and sources a key may use, as form controls.

/** The model options: each model, those not configured on the server disabled. */
export function showModels(select, models) {
  const chosen = select.value;
  select.replaceChildren(
    ...models.map((m) => {
      const option = new Option(m.available ? `${m.id} (${m.resolves_to})` : `${m.id} (not configured)`, m.id);
      option.disabled = !m.available;
      return option;
    }),
  );
  if (models.some((m) => m.id === chosen && m.available)) select.value = chosen;
}

/** A checkbox per source the key may use; none ticked lets the agent choose. */
export function showSources(list, help, sources) {
  help.textContent = sources.length
    ? "Tick none to let the agent choose, or tick the sources to answer from."
    : "This key sees no knowledge sources yet: add one with npm run cli -- sources add.";
  list.replaceChildren(
    ...sources.map((s) => {
      const label = document.createElement("label");
      label.className = "source";
      const box = Object.assign(document.createElement("input"), { type: "checkbox", value: s.id, name: "source" });
      const name = Object.assign(document.createElement("span"), { className: "source-name", textContent: s.name });
      const detail = Object.assign(document.createElement("span"), {
        className: "source-detail",
        textContent: `${s.pages} pages${s.description ? ` · ${s.description}` : ""}`,
      });
      label.append(box, name, detail);
      return label;
    }),
  );
}
