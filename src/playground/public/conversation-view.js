// The conversation so far: each question is asked with the earlier ones and the answers shown for them.

/** Turns sent with the next question: enough for a follow-up to be read with what it follows. */
const MAX_TURNS = 8;
/**
 * Characters of earlier turns sent with a question, the newest kept: half the
 * server's default limit on a request's messages (400,000), so pasted logs
 * never leave the conversation refused with a 400 until it is started afresh.
 */
const MAX_EARLIER_CHARS = 200_000;

/**
 * `el`: the earlier questions' section and list, and the New conversation
 * button; `onReset` clears what the page shows. `messagesFor(question)` is a
 * request's `messages`, `remember(question, answer)` adds a finished turn.
 */
export function conversationView(el, onReset) {
  /** The finished turns, oldest first. */
  let turns = [];

  // The earlier questions are listed above the answer shown, which is the last one's.
  function show() {
    const earlier = turns.slice(0, -1);
    el.list.replaceChildren(...earlier.map(({ question }) => Object.assign(document.createElement("li"), { textContent: question })));
    el.section.hidden = earlier.length === 0;
    el.reset.hidden = turns.length === 0;
  }

  el.reset.addEventListener("click", () => {
    turns = [];
    show();
    onReset();
  });

  return {
    messagesFor(question) {
      const sent = [];
      let chars = 0;
      for (const turn of turns.toReversed()) {
        chars += turn.question.length + turn.answer.length;
        if (chars > MAX_EARLIER_CHARS) break;
        sent.unshift({ role: "user", content: turn.question }, { role: "assistant", content: turn.answer });
      }
      return [...sent, { role: "user", content: question }];
    },
    remember(question, answer) {
      turns = [...turns, { question, answer }].slice(-MAX_TURNS);
      show();
    },
  };
}
