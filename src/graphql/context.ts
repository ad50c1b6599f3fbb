import type { Caller } from "../auth/admit.ts";
import type { SubmitFeedback } from "../core/feedback.ts";
import type { ResourceReader } from "../core/resource-reader.ts";
import type { CompletionOpener } from "../core/run-completion.ts";
import type { Logger } from "../logging/logger.ts";

export interface GraphQLServices {
  engine: CompletionOpener;
  resources: ResourceReader;
  /** Where unexpected errors are logged (stderr without one). */
  logger?: Logger;
  usage: { submitFeedback: SubmitFeedback };
}

export interface GraphQLContext {
  services: GraphQLServices;
  caller: Caller;
  /** The HTTP request, as Yoga passes it; its signal ends when the client goes away. */
  request: Request;
}
