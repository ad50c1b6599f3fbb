// The words the page shows for each kind of failed request.
import { ApiError } from "./api.js";

const KEY_HINT = 'docent prints a key on its first start; create another with "npm run cli -- keys create --name me" and paste it above.';

/** A heading line and what to do about it. */
export function describe(error) {
  if (!(error instanceof ApiError)) return ["Something went wrong in the page.", String(error?.message ?? error)];
  switch (error.kind) {
    case "missing":
      return ["No API key.", KEY_HINT];
    case "auth":
      return ["The API key was not accepted (401).", `${error.message ? `${error.message} ` : ""}${KEY_HINT}`];
    case "rate": {
      const wait = error.retryAfter;
      const when =
        wait === null ? "in a little while" : `in ${wait} second${wait === 1 ? "" : "s"} (at ${new Date(Date.now() + wait * 1000).toLocaleTimeString()})`;
      return ["Rate limited (429): too many requests for this key.", `Try again ${when}.${error.message ? ` ${error.message}` : ""}`];
    }
    case "network":
      return [
        "Could not reach docent.",
        `The request failed before an answer came back (${error.message}). Check that the server is running and reachable from this browser.`,
      ];
    case "cut":
      return ["The answer was cut off.", `${error.message} Ask again.`];
    default:
      return [`docent returned an error${error.status ? ` (${error.status})` : ""}.`, error.message];
  }
}
