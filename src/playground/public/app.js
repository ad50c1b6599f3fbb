// The playground: a key, a model, some sources, a question; the answer streams in.
import { ApiError, getJson, streamCompletion } from "./api.js";
import { renderAnswer, renderReferences } from "./render.js";

const KEY_STORAGE = "docent.apiKey";
const KEY_HINT = 'docent prints a key on its first start; create another with "npm run cli -- keys create --name me" and paste it above.';
const $ = (id) => document.getElementById(id);
const el = {
  form: $("ask"), key: $("key"), forget: $("forget"), model: $("model"), sourcesHelp: $("sources-help"), sourceList: $("source-list"),
  question: $("question"), submit: $("submit"), stop: $("stop"), status: $("status"), error: $("error"),
  result: $("result"), modelLabel: $("model-label"), notCovered: $("not-covered"), answer: $("answer"),
  referencesBlock: $("references-block"), references: $("references"),
};

let sourceNames = new Map();
let running = null;

// ---- errors ----

function showError(error) {
  const text = describe(error);
  el.error.replaceChildren(...text.map((line, i) => Object.assign(document.createElement(i === 0 ? "strong" : "p"), { textContent: line })));
  el.error.dataset.kind = error instanceof ApiError ? error.kind : "other";
  el.error.hidden = false;
  if (error.kind === "auth" || error.kind === "missing") el.key.focus();
}

function clearError() {
  el.error.hidden = true;
  el.error.replaceChildren();
}

/** A heading line and what to do about it. */
function describe(error) {
  if (!(error instanceof ApiError)) return ["Something went wrong in the page.", String(error?.message ?? error)];
  switch (error.kind) {
    case "missing":
      return ["No API key.", KEY_HINT];
    case "auth":
      return ["The API key was not accepted (401).", `${error.message ? `${error.message} ` : ""}${KEY_HINT}`];
    case "rate": {
      const wait = error.retryAfter;
      const when = wait === null ? "in a little while" : `in ${wait} second${wait === 1 ? "" : "s"} (at ${new Date(Date.now() + wait * 1000).toLocaleTimeString()})`;
      return ["Rate limited (429): too many requests for this key.", `Try again ${when}.${error.message ? ` ${error.message}` : ""}`];
    }
    case "network":
      return ["Could not reach docent.", `The request failed before an answer came back (${error.message}). Check that the server is running and reachable from this browser.`];
    case "cut":
      return ["The answer was cut off.", `${error.message} Ask again.`];
    default:
      return [`docent returned an error${error.status ? ` (${error.status})` : ""}.`, error.message];
  }
}

// ---- key, models and sources ----

function key() {
  return el.key.value.trim();
}

let catalogTimer;
el.key.addEventListener("input", () => {
  if (key()) localStorage.setItem(KEY_STORAGE, key());
  else localStorage.removeItem(KEY_STORAGE);
  clearTimeout(catalogTimer);
  catalogTimer = setTimeout(loadCatalog, 400);
});

el.forget.addEventListener("click", () => {
  localStorage.removeItem(KEY_STORAGE);
  el.key.value = "";
  showSources([]);
  el.sourcesHelp.textContent = "Enter a key to list the knowledge sources.";
  el.key.focus();
});

async function loadCatalog() {
  if (!key()) return;
  el.sourcesHelp.textContent = "Loading sources…";
  try {
    const [models, sources] = await Promise.all([getJson("/v1/models", key()), getJson("/v1/sources", key())]);
    clearError();
    showModels(models.data);
    showSources(sources.data);
  } catch (error) {
    el.sourcesHelp.textContent = "The sources could not be listed.";
    showError(error);
  }
}

function showModels(models) {
  const chosen = el.model.value;
  el.model.replaceChildren(
    ...models.map((m) => {
      const option = new Option(m.available ? `${m.id} (${m.resolves_to})` : `${m.id} (not configured)`, m.id);
      option.disabled = !m.available;
      return option;
    }),
  );
  if (models.some((m) => m.id === chosen && m.available)) el.model.value = chosen;
}

function showSources(sources) {
  sourceNames = new Map(sources.map((s) => [s.id, s.name]));
  el.sourcesHelp.textContent = sources.length
    ? "Tick none to let the agent choose, or tick the sources to answer from."
    : "This key sees no knowledge sources yet: add one with npm run cli -- sources add.";
  el.sourceList.replaceChildren(
    ...sources.map((s) => {
      const label = document.createElement("label");
      label.className = "source";
      const box = Object.assign(document.createElement("input"), { type: "checkbox", value: s.id, name: "source" });
      const name = Object.assign(document.createElement("span"), { className: "source-name", textContent: s.name });
      const detail = Object.assign(document.createElement("span"), { className: "source-detail", textContent: `${s.pages} pages${s.description ? ` · ${s.description}` : ""}` });
      label.append(box, name, detail);
      return label;
    }),
  );
}

// ---- asking ----

el.question.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    el.form.requestSubmit();
  }
});

el.stop.addEventListener("click", () => running?.abort());

el.form.addEventListener("submit", (event) => {
  event.preventDefault();
  if (running) return;
  if (!key()) {
    showError(new ApiError("missing", ""));
    return;
  }
  const question = el.question.value.trim();
  if (!question) {
    el.question.focus();
    return;
  }
  ask(question);
});

async function ask(question) {
  const sources = [...el.sourceList.querySelectorAll("input:checked")].map((box) => box.value);
  const body = { model: el.model.value || "agent", messages: [{ role: "user", content: question }], ...(sources.length && { sources }) };
  const controller = new AbortController();
  running = controller;
  clearError();
  setBusy(true, "Asking…");
  Object.assign(el.result, { hidden: false });
  el.result.dataset.state = "streaming";
  el.notCovered.hidden = true;
  el.referencesBlock.hidden = true;
  el.modelLabel.textContent = "";
  el.answer.replaceChildren();

  let text = "";
  let refs = [];
  const titles = new Map();
  let frame = 0;
  const draw = () => {
    frame = 0;
    renderAnswer(el.answer, text, refs, titles);
  };
  try {
    for await (const event of streamCompletion(key(), body, controller.signal)) {
      if (event.type === "open") {
        const used = event.sources.map((id) => sourceNames.get(id) ?? id).join(", ");
        el.modelLabel.textContent = event.model ?? "";
        el.modelLabel.title = used ? `Sources: ${used}` : "";
        setBusy(true, "Answering…");
        continue;
      }
      const { chunk } = event;
      refs = chunk.url_references ?? refs;
      const delta = chunk.choices?.[0]?.delta;
      if (delta?.content) text += delta.content;
      for (const a of delta?.annotations ?? []) titles.set(a.url_citation.url, a.url_citation.title);
      if (!frame) frame = requestAnimationFrame(draw);
    }
    cancelAnimationFrame(frame);
    draw();
    finish(refs, titles);
  } catch (error) {
    cancelAnimationFrame(frame);
    if (text) draw();
    el.result.hidden = !text;
    el.result.dataset.state = error.name === "AbortError" ? "stopped" : "error";
    if (error.name === "AbortError") setBusy(false, "Stopped.");
    else {
      setBusy(false, "");
      showError(error);
    }
    return;
  } finally {
    running = null;
  }
}

function finish(refs, titles) {
  // No references: the sources did not cover the question (the answer says so).
  const covered = refs.length > 0;
  el.result.dataset.state = covered ? "answered" : "not-covered";
  el.notCovered.hidden = covered;
  el.referencesBlock.hidden = !covered;
  renderReferences(el.references, refs, titles);
  setBusy(false, covered ? `Answered with ${refs.length} reference${refs.length === 1 ? "" : "s"}.` : "Not covered by the sources.");
}

function setBusy(busy, status) {
  el.submit.disabled = busy;
  el.stop.hidden = !busy;
  el.answer.setAttribute("aria-busy", String(busy));
  el.status.textContent = status;
}

// ---- start ----

const stored = localStorage.getItem(KEY_STORAGE);
if (stored) {
  el.key.value = stored;
  loadCatalog();
  el.question.focus();
} else el.key.focus();
