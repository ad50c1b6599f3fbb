// The playground: a key, a model, some sources, a question; the answer streams in.
import { ApiError, getJson, streamCompletion } from "./api.js";
import { showModels, showSources } from "./catalog-view.js";
import { conversationView } from "./conversation-view.js";
import { describe } from "./describe-error.js";
import { feedbackView } from "./feedback-view.js";
import { renderAnswer, renderReferences } from "./render.js";

const KEY_STORAGE = "docent.apiKey";
const $ = (id) => document.getElementById(id);
const el = {
  form: $("ask"),
  key: $("key"),
  forget: $("forget"),
  model: $("model"),
  sourcesHelp: $("sources-help"),
  sourceList: $("source-list"),
  question: $("question"),
  submit: $("submit"),
  stop: $("stop"),
  status: $("status"),
  error: $("error"),
  result: $("result"),
  modelLabel: $("model-label"),
  notCovered: $("not-covered"),
  answer: $("answer"),
  referencesBlock: $("references-block"),
  references: $("references"),
};
const feedback = feedbackView(
  { block: $("feedback"), up: $("vote-up"), down: $("vote-down"), status: $("feedback-status"), commentForm: $("feedback-comment"), comment: $("comment") },
  () => key(),
  (error) => showError(error),
);

let sourceNames = new Map();
let running = null;

const conversation = conversationView({ section: $("conversation"), list: $("turns"), reset: $("new-conversation") }, () => {
  running?.abort();
  el.result.hidden = true;
  feedback.hide();
  el.question.value = "";
  el.question.focus();
});

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
  el.sourceList.replaceChildren();
  el.sourcesHelp.textContent = "Enter a key to list the knowledge sources.";
  el.key.focus();
});

async function loadCatalog() {
  if (!key()) return;
  el.sourcesHelp.textContent = "Loading sources…";
  try {
    const [models, sources] = await Promise.all([getJson("/v1/models", key()), getJson("/v1/sources", key())]);
    clearError();
    showModels(el.model, models.data);
    showSources(el.sourceList, el.sourcesHelp, sources.data);
    sourceNames = new Map(sources.data.map((s) => [s.id, s.name]));
  } catch (error) {
    el.sourcesHelp.textContent = "The sources could not be listed.";
    showError(error);
  }
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
  const body = { model: el.model.value || "agent", messages: conversation.messagesFor(question), ...(sources.length && { sources }) };
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
  feedback.hide();

  let text = "";
  // A model that declines says so in its own field (OpenAI's refusal): shown as the answer, marked as declined.
  let refusal = "";
  let completionId = null;
  let refs = [];
  const titles = new Map();
  let frame = 0;
  const draw = () => {
    frame = 0;
    renderAnswer(el.answer, text || refusal, refs, titles);
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
      completionId = chunk.id ?? completionId;
      refs = chunk.url_references ?? refs;
      const delta = chunk.choices?.[0]?.delta;
      if (delta?.content) text += delta.content;
      if (delta?.refusal) refusal += delta.refusal;
      for (const a of delta?.annotations ?? []) titles.set(a.url_citation.url, a.url_citation.title);
      if (!frame) frame = requestAnimationFrame(draw);
    }
    cancelAnimationFrame(frame);
    draw();
    finish(refs, titles, refusal !== "" && text === "");
    // A finished answer joins the conversation; one stopped or failed does not, and its question stays to ask again.
    conversation.remember(question, text || refusal);
    if (el.question.value.trim() === question) el.question.value = "";
    // Only a finished answer can be rated: the server records it when its last chunk has gone out.
    feedback.show(completionId);
  } catch (error) {
    cancelAnimationFrame(frame);
    if (text || refusal) draw();
    el.result.hidden = !(text || refusal);
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

function finish(refs, titles, declined) {
  // No references: the sources did not cover the question (the answer says so), or the model declined.
  const covered = refs.length > 0;
  if (declined) {
    el.result.dataset.state = "declined";
    el.referencesBlock.hidden = true;
    setBusy(false, "The model declined to answer.");
    return;
  }
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
