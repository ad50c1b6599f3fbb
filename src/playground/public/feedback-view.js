// Thumbs up or down on the answer just shown, sent to POST /v1/feedback with the completion's id.
import { postJson } from "./api.js";

/**
 * `el`: the feedback block's elements; `key()` the current API key; `onError`
 * shows a failed call. `show(id)` offers feedback on a new answer, `hide()` withdraws it.
 */
export function feedbackView(el, key, onError) {
  let completionId = null;
  let rating = null;

  function press(pressed) {
    el.up.setAttribute("aria-pressed", String(pressed === "up"));
    el.down.setAttribute("aria-pressed", String(pressed === "down"));
  }

  async function send(body, done) {
    const id = completionId;
    el.status.textContent = "Sending…";
    try {
      const kept = await postJson("/v1/feedback", key(), { completion_id: id, ...body });
      // A newer answer may have replaced this one while the call was out.
      if (id === completionId) done(kept);
    } catch (error) {
      if (id === completionId) el.status.textContent = "";
      onError(error);
    }
  }

  function vote(value) {
    send({ rating: value }, () => {
      rating = value;
      press(value);
      el.status.textContent = value === "up" ? "Thanks — noted as helpful." : "Thanks — noted as not helpful.";
      el.commentForm.hidden = value !== "down";
      if (value === "down") el.comment.focus();
    });
  }

  el.up.addEventListener("click", () => vote("up"));
  el.down.addEventListener("click", () => vote("down"));
  el.commentForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const comment = el.comment.value.trim();
    if (!comment || rating !== "down") return;
    send({ rating: "down", comment }, (kept) => {
      // The server keeps comments only when it stores questions (STORE_QUESTIONS=1): it answers with what it kept.
      el.status.textContent = kept?.comment ? "Thanks — your comment was sent." : "Thanks — rated. This server keeps no comments (it stores no question text).";
      el.commentForm.hidden = true;
    });
  });

  return {
    show(id) {
      completionId = id;
      rating = null;
      press(null);
      el.status.textContent = "";
      el.comment.value = "";
      el.commentForm.hidden = true;
      el.block.hidden = !id;
    },
    hide() {
      completionId = null;
      el.block.hidden = true;
    },
  };
}
