import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { DocentError, toDocentError, waitSeconds } from "../core/errors.ts";
import { zodToBadRequest } from "../core/validate-request.ts";
import type { TrpcContext } from "./context.ts";

/** The one place DocentErrors become TRPCErrors (the codes share tRPC's names). */
export function toTRPCError(error: unknown): TRPCError {
  if (error instanceof TRPCError) return error;
  const docent = toDocentError(error);
  // tRPC names a 405 METHOD_NOT_SUPPORTED; every other code shares its name.
  const code = docent.code === "METHOD_NOT_ALLOWED" ? "METHOD_NOT_SUPPORTED" : docent.code;
  return new TRPCError({
    code,
    message: docent.code === "INTERNAL_SERVER_ERROR" ? "The service failed to process the request." : docent.message,
    cause: docent,
  });
}

const t = initTRPC.context<TrpcContext>().create({
  errorFormatter({ shape, error, input }) {
    // Input validation says the same thing as REST and GraphQL.
    const cause = error.cause;
    const docent = cause instanceof ZodError ? zodToBadRequest(cause, input) : cause instanceof DocentError ? cause : null;
    // A body or `input` that is not JSON: said plainly, without the parser's message (which quotes the bytes it met).
    const unparsed = !docent && (error.code === "PARSE_ERROR" || (error.code === "BAD_REQUEST" && cause instanceof SyntaxError));
    return {
      ...shape,
      message: docent?.message ?? (unparsed ? "The request body or `input` is not valid JSON." : shape.message),
      data: {
        ...shape.data,
        param: docent?.param ?? null,
        reason: docent?.reason ?? (unparsed ? "invalid_json" : null),
        // Seconds to wait before trying again, also sent as `Retry-After` (handler.ts).
        retryAfter: docent ? waitSeconds(docent) : null,
        stack: undefined,
      },
    };
  },
});

export const router = t.router;
export const publicProcedure = t.procedure;

/** Every procedure needs the same Bearer key as REST (checked once for all interfaces, see http/admission.ts). */
export const protectedProcedure = t.procedure.use(({ ctx, next }) => {
  if ("error" in ctx.admission) throw toTRPCError(ctx.admission.error);
  return next({ ctx: { ...ctx, caller: ctx.admission.caller } });
});
