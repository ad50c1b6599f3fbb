import type { Admission } from "../auth/admit.ts";
import type { SubmitFeedback } from "../core/feedback.ts";
import type { ResourceReader } from "../core/resource-reader.ts";
import type { CompletionOpener } from "../core/run-completion.ts";
import type { Logger } from "../logging/logger.ts";

export interface TrpcServices {
  engine: CompletionOpener;
  resources: ResourceReader;
  /** Where unexpected errors are logged (stderr without one). */
  logger?: Logger;
  usage: { submitFeedback: SubmitFeedback };
}

export interface TrpcContext {
  services: TrpcServices;
  /** The caller, or why it was refused (raised by protected procedures as a TRPCError). */
  admission: Admission;
}

/** The testable part of the context: dependencies plus the admitted caller. */
export const createContextInner = (services: TrpcServices, admission: Admission): TrpcContext => ({ services, admission });
