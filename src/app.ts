import { type Context, Hono } from "hono";
import type { AppServices } from "./app-services.ts";
import { createStreamTokens } from "./auth/stream-tokens.ts";
import { DocentError, notFound, toDocentError } from "./core/errors.ts";
import type { Lease } from "./core/rate-limiter.ts";
import { refusalResponse, streamErrorResponse, thrownClientError, withErrorCodes } from "./graphql/errors.ts";
import { createStreamBacklogs } from "./graphql/stream-backlog.ts";
import { createGraphQLHandler, releaseReservation, streamTokenOf } from "./graphql/yoga.ts";
import { type AdmissionEnv, acquireMore, admission, callerOf, releasedWith } from "./http/admission.ts";
import { allowedMethods } from "./http/allowed-methods.ts";
import { jsonShapeError, limitBody } from "./http/body-limit.ts";
import { bundledDocsRoutes } from "./http/bundled-docs.ts";
import { CORS_PATHS, corsFor } from "./http/cors.ts";
import { endOnAbort } from "./http/end-on-abort.ts";
import { errorResponse } from "./http/error-response.ts";
import { jsonShapeProblem } from "./http/json-shape.ts";
import { rejectMalformedUrls } from "./http/malformed-url.ts";
import { metricsRoute } from "./http/metrics-route.ts";
import { observeRequests } from "./http/observe-requests.ts";
import { openApiRoutes } from "./http/openapi/openapi-routes.ts";
import { logRequests } from "./http/request-log.ts";
import { labelInterface, type TraceEnv, traceRequests } from "./http/request-trace.ts";
import { restRoutes } from "./http/rest-routes.ts";
import { mcpRoutes } from "./mcp/mcp-routes.ts";
import { playgroundRoutes } from "./playground/playground-routes.ts";
import { createTrpcHandler, trpcErrorResponse, trpcPaths } from "./trpc/handler.ts";

const parsesAsJson = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** /healthz answers 200 only when "ok": "starting" until start-up work (demo ingestion) is done, "draining" while stopping. */
export type HealthStatus = "starting" | "ok" | "draining";

export interface AppOptions {
  health?: () => HealthStatus;
}

/** The HTTP application: REST at /v1, GraphQL at /graphql, tRPC at /trpc, MCP at /mcp, the playground at /, on one Hono app. */
export function createApp(services: AppServices, { health = () => "ok" }: AppOptions = {}) {
  const { logger } = services;
  const app = new Hono<AdmissionEnv & TraceEnv>();
  // Every request gets a trace (request id, door, key id) that collects its completions' outcomes for the
  // observers, and one log line when its response has ended.
  app.use(
    traceRequests(services.completionObservers, {
      onObserverError: (error, outcome) =>
        logger.error({ err: error, request_id: outcome.requestId, completion_id: outcome.completionId }, "a completion observer failed"),
    }),
  );
  app.use(observeRequests([logRequests(logger, { logQuestions: services.config.LOG_QUESTIONS }), services.metrics.onRequest]));
  app.use("/v1/*", labelInterface("rest"));
  app.use("/v1/responses", labelInterface("responses"));
  app.use("/graphql/*", labelInterface("graphql"));
  app.use("/trpc/*", labelInterface("trpc"));
  app.use("/mcp/*", labelInterface("mcp"));
  app.use(rejectMalformedUrls);

  app.get("/healthz", (c) => c.json({ status: health() }, health() === "ok" ? 200 : 503));
  app.get(
    "/metrics",
    metricsRoute(services.metrics.registry, services.config.METRICS_TOKEN, { host: services.config.HOST, publicUrl: services.config.PUBLIC_URL }),
  );

  // Other origins, when CORS_ORIGINS allows them: before admission, so preflights need no key.
  const cors = corsFor(services.config.CORS_ORIGINS);
  if (cors) for (const path of CORS_PATHS) app.use(path, cors);
  app.route("/", playgroundRoutes());

  // One core, three interfaces; one admission (key, scope, limits) in front of each.
  const maxBodyBytes = services.config.MAX_BODY_BYTES;
  const admitDeps = { keys: services.keys, limiter: services.rateLimiter };
  app.route("/v1", restRoutes({ ...admitDeps, engine: services.engine, resources: services.resources, maxBodyBytes, usage: services.usage }));

  // A key may hold as many open single-connection streams as it may have requests in progress.
  // A token given up unopened lets its reservation go too; an open stream is closed when its reader falls behind.
  let letGo = (_token: string) => {};
  const tokens = createStreamTokens({ perKey: Math.max(32, services.config.MAX_CONCURRENT_PER_KEY), onDrop: (token) => letGo(token) });
  const backlogs = createStreamBacklogs();
  const graphql = createGraphQLHandler(services, tokens, backlogs);
  letGo = (token) =>
    void releaseReservation(graphql, token).catch((error) => logger.error({ err: error, interface: "graphql" }, "releasing a stream reservation failed"));
  app.use("/graphql", admission(admitDeps, { refuse: refusalResponse }));
  // Stream tokens are accepted only where graphql-sse's single-connection mode needs them.
  app.use(
    "/graphql/stream",
    admission(admitDeps, {
      refuse: refusalResponse,
      streamToken: (request) => {
        const token = streamTokenOf(request);
        return token ? { keyId: tokens.use(token) } : null;
      },
      freeOfLimits: (request) => request.method === "DELETE" && !/text\/event-stream/i.test(request.headers.get("accept") ?? ""),
    }),
  );
  app.on(["GET", "POST", "PUT", "DELETE"], ["/graphql", "/graphql/stream"], limitBody(maxBodyBytes, { refuse: refusalResponse }), async (c) => {
    // A body is JSON, whose depth and size limitBody has checked; Yoga would also parse a form-encoded
    // one, whose `variables` (JSON inside a form field) no limit has seen.
    const type = c.req.header("content-type");
    // RFC 9110 §15.5.16: a media type the server does not take is a 415, and Accept says which it takes.
    if (c.req.method === "POST" && type && !/^application\/(graphql-response\+|graphql\+)?json\b/i.test(type)) {
      const message = `GraphQL requests are sent as application/json, not ${type.split(";")[0]!.slice(0, 100)}.`;
      const refused = refusalResponse(new DocentError("UNSUPPORTED_MEDIA_TYPE", message, { reason: "unsupported_media_type" }));
      refused.headers.set("accept", "application/json");
      return refused;
    }
    // A GET carries JSON in its query string (`variables`, `extensions`): the same shape limits as a body.
    if (c.req.method === "GET") {
      for (const name of ["variables", "extensions"]) {
        const text = c.req.query(name) ?? "";
        const problem = jsonShapeProblem(text);
        if (problem) return refusalResponse(jsonShapeError(problem));
        // Yoga's GET parser throws on invalid JSON there (a 500): the same 400 as a body that is not JSON.
        if (text && !parsesAsJson(text)) return streamErrorResponse(400, `The query string's \`${name}\` is not valid JSON.`, name);
      }
    }
    // graphql-sse opens a stream for any method that asks for events: only a GET opens a single-connection
    // stream (a POST a distinct one). A DELETE so took no slot and outlived its key; a HEAD left it open.
    if (c.req.path === "/graphql/stream" && !["GET", "POST"].includes(c.req.method) && /text\/event-stream/i.test(c.req.header("accept") ?? "")) {
      const refused = refusalResponse(
        new DocentError("METHOD_NOT_ALLOWED", `An event stream is opened with GET (or POST), not ${c.req.method}.`, { reason: "method_not_allowed" }),
      );
      refused.headers.set("allow", "GET, POST");
      return refused;
    }
    // An operation (anything but the stream's own opening) goes into an open stream: graphql-sse would keep
    // the results of one sent into a reserved stream until it opens, however long that is.
    const token = streamTokenOf(c.req.raw);
    const opening = (c.req.header("accept") ?? "*/*") === "text/event-stream";
    if (c.req.path === "/graphql/stream" && token && !opening && ["GET", "POST"].includes(c.req.method) && tokens.unopened(token))
      return streamErrorResponse(409, "Open the stream (GET with its token, accept: text/event-stream) before sending operations into it.");
    const admitted = c.get("admission");
    let response: Response;
    try {
      response = await graphql(c.req.raw, admitted);
    } catch (error) {
      const refused = thrownClientError(error);
      if (!refused) throw error;
      return refused;
    }
    if (c.req.path === "/graphql/stream" && response.status >= 400) return withErrorCodes(response);
    // The single-connection stream outlives its admission: it ends when its key is revoked or expires.
    // graphql-sse opens it for any request with the token that asks for events, a POST as well as a GET.
    if (c.req.path !== "/graphql/stream" || !token || !response.body || !response.headers.get("content-type")?.startsWith("text/event-stream")) return response;
    // The admission watches the key for as long as the stream's body runs (its lease is held to the end);
    // an open stream keeps its token from lapsing, since operations may still be sent into it with the token.
    const { keySignal } = callerOf(admitted);
    if (!keySignal) throw new Error("The admission watches every admitted key.");
    const release = tokens.hold(token);
    const watched = backlogs.watch(token, response.body);
    const ended = () => {
      watched.end();
      release();
    };
    return new Response(endOnAbort(watched.body, AbortSignal.any([keySignal, watched.signal]), ended), response);
  });
  const trpc = createTrpcHandler(services);
  // A refusal (of the caller, or of a body for its size or shape) is answered by tRPC itself (its error shape and status), from a bodiless copy of the request.
  // A method the adapter does not take (it would answer 415) is refused in tRPC's shape without it.
  const trpcRefusal = (error: DocentError, c: Context) =>
    ["GET", "POST"].includes(c.req.method)
      ? trpc(new Request(c.req.url, { method: c.req.method, headers: bodilessHeaders(c.req.raw) }), { error })
      : trpcErrorResponse(error, c.req.url);
  app.use("/trpc/*", admission(admitDeps, { refuse: trpcRefusal }));
  app.on(["GET", "POST"], "/trpc/*", limitBody(maxBodyBytes, { refuse: trpcRefusal }), async (c) => {
    const admitted = c.get("admission");
    const caller = callerOf(admitted);
    // A batch (`/trpc/a,b,c?batch=1`) counts each of its calls against the key's limits, read as tRPC reads
    // them: from the path decoded whole, so `%2C` separates calls too.
    const calls = c.req.query("batch") === "1" ? trpcPaths(c.req.url).length : 1;
    let more: Lease;
    try {
      more = await acquireMore(admitDeps.limiter, caller, calls);
    } catch (error) {
      return trpc(c.req.raw, { error: toDocentError(error) });
    }
    return releasedWith(c.req.raw, await trpc(c.req.raw, admitted), more);
  });
  // MCP for coding agents: the same admission, tools over the same core.
  const { HOST: host, PUBLIC_URL: publicUrl, CORS_ORIGINS: corsOrigins } = services.config;
  app.route("/mcp", mcpRoutes({ ...admitDeps, services, maxBodyBytes, guards: { host, publicUrl, corsOrigins } }));

  // The OpenAPI document and its reference page, before /docs/* (the bundled documentation).
  app.route("/", openApiRoutes({ publicUrl: services.config.PUBLIC_URL }));
  // The bundled documentation, rendered, so the demo source's references open in a browser.
  app.route("/docs", bundledDocsRoutes());

  const methodsAt = allowedMethods(app.routes);
  app.notFound(async (c) => {
    const trace = c.get("trace");
    const allow = methodsAt(c.req.path);
    if (allow.length > 0) {
      if (trace) trace.errorCode = "method_not_allowed";
      // The path as asked, shortened: a tRPC batch's path can run to the URL's limit.
      const path = c.req.path.length > 200 ? `${c.req.path.slice(0, 200)}…` : c.req.path;
      const message = `${path} does not take ${c.req.method}; it takes ${allow.join(", ")}.`;
      const error = new DocentError("METHOD_NOT_ALLOWED", message, { reason: "method_not_allowed" });
      // In the door's own error shape: GraphQL's and tRPC's clients read theirs.
      const response =
        c.req.path === "/graphql" || c.req.path.startsWith("/graphql/")
          ? refusalResponse(error)
          : c.req.path.startsWith("/trpc/")
            ? trpcErrorResponse(error, c.req.url)
            : errorResponse(error);
      const headers = new Headers(response.headers);
      headers.set("allow", allow.join(", "));
      return new Response(response.body, { status: response.status, headers });
    }
    if (trace) {
      trace.errorCode = "unknown_url";
      trace.route = "unmatched";
    }
    return errorResponse(notFound(`Unknown route: ${c.req.method} ${c.req.path}.`, null, "unknown_url"));
  });
  app.onError((error, c) => {
    const docentError = toDocentError(error);
    const trace = c.get("trace");
    if (trace) trace.errorCode = docentError.reason ?? docentError.code;
    if (docentError.code === "INTERNAL_SERVER_ERROR") logger.error({ err: error, request_id: trace?.requestId, method: c.req.method }, "unexpected error");
    return errorResponse(docentError);
  });
  return app;
}

function bodilessHeaders(request: Request): Headers {
  const headers = new Headers(request.headers);
  headers.delete("content-length");
  headers.delete("transfer-encoding");
  return headers;
}
