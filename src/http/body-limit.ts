import { bodyLimit } from "hono/body-limit";
import { DocentError } from "../core/errors.ts";
import { errorResponse } from "./error-response.ts";

/** MAX_BODY_BYTES for every interface: 413 in OpenAI's error shape. */
export const limitBody = (maxBytes: number) =>
  bodyLimit({
    maxSize: maxBytes,
    onError: () => errorResponse(new DocentError("PAYLOAD_TOO_LARGE", `The request body is larger than ${maxBytes} bytes (MAX_BODY_BYTES).`, { reason: "request_too_large" })),
  });
