import fs from "node:fs";
import path from "node:path";
import { Hono } from "hono";
import type { AppServices } from "./app-services.ts";
import { bundledDocuments } from "./demo-source.ts";
import { notFound, toDocentError } from "./core/errors.ts";
import { errorResponse } from "./http/error-response.ts";
import { restRoutes } from "./http/rest-routes.ts";
import { limitBody } from "./http/body-limit.ts";
import { admission, type AdmissionEnv } from "./http/admission.ts";
import { createStreamTokens } from "./auth/stream-tokens.ts";
import { refusalResponse } from "./graphql/errors.ts";
import { createGraphQLHandler, streamTokenOf } from "./graphql/yoga.ts";
import { rejectMalformedUrls } from "./http/malformed-url.ts";
import { createTrpcHandler } from "./trpc/handler.ts";
import { CORS_PATHS, corsFor } from "./http/cors.ts";
import { playgroundRoutes } from "./playground/playground-routes.ts";
import { labelInterface, traceRequests, type TraceEnv } from "./http/request-trace.ts";

/** /healthz answers 200 only when "ok": "starting" until start-up work (demo ingestion) is done, "draining" while stopping. */
export type HealthStatus = "starting" | "ok" | "draining";

export interface AppOptions {
  health?: () => HealthStatus;
  log?: (line: string) => void;
}

/** The HTTP application: REST at /v1, GraphQL at /graphql, tRPC at /trpc, the playground at /, on one Hono app. */
export function createApp(services: AppServices, { health = () => "ok", log = (l) => console.error(l) }: AppOptions = {}) {
  const app = new Hono<AdmissionEnv & TraceEnv>();
  // Every request gets a trace (request id, door, key id) that collects its completions' outcomes for the observers.
  app.use(traceRequests(services.completionObservers, { onObserverError: (error) => log(`error: a completion observer failed: ${(error as Error)?.stack ?? error}`) }));
  app.use("/v1/*", labelInterface("rest"));
  app.use("/v1/responses", labelInterface("responses"));
  app.use("/graphql/*", labelInterface("graphql"));
  app.use("/trpc/*", labelInterface("trpc"));
  app.use(rejectMalformedUrls);

  app.get("/healthz", (c) => c.json({ status: health() }, health() === "ok" ? 200 : 503));

  // Other origins, when CORS_ORIGINS allows them: before admission, so preflights need no key.
  const cors = corsFor(services.config.CORS_ORIGINS);
  if (cors) for (const path of CORS_PATHS) app.use(path, cors);
  app.route("/", playgroundRoutes());

  // One core, three interfaces; one admission (key, scope, limits) in front of each.
  const maxBodyBytes = services.config.MAX_BODY_BYTES;
  const admitDeps = { keys: services.keys, limiter: services.rateLimiter };
  app.route("/v1", restRoutes({ ...admitDeps, engine: services.engine, resources: services.resources, maxBodyBytes, usage: services.usage }));

  const tokens = createStreamTokens();
  const graphql = createGraphQLHandler(services, tokens);
  app.use("/graphql", admission(admitDeps, { reject: false }));
  // Stream tokens are accepted only where graphql-sse's single-connection mode needs them.
  app.use("/graphql/stream", admission(admitDeps, { reject: false, streamToken: (request) => { const token = streamTokenOf(request); return token ? { keyId: tokens.use(token) } : null; } }));
  app.on(["GET", "POST", "PUT", "DELETE"], ["/graphql", "/graphql/stream"], limitBody(maxBodyBytes), (c) => {
    const admitted = c.get("admission");
    // graphql-sse reserves and opens its stream before Yoga builds a context: refuse here in GraphQL's shape.
    if (c.req.path === "/graphql/stream" && "error" in admitted) return refusalResponse(admitted.error);
    return graphql(c.req.raw, admitted);
  });
  const trpc = createTrpcHandler(services);
  app.use("/trpc/*", admission(admitDeps, { reject: false }));
  app.on(["GET", "POST"], "/trpc/*", limitBody(maxBodyBytes), (c) => trpc(c.req.raw, c.get("admission")));

  // The bundled documentation, so the demo source's references resolve.
  const docs = new Map(bundledDocuments().map((d) => [d.relPath, d.file]));
  app.get("/docs/*", (c) => {
    const rel = decodeURIComponent(c.req.path.slice("/docs/".length));
    const file = docs.get(rel);
    if (!file) throw notFound(`No bundled document '${rel}'.`, null, "not_found");
    const type = /\.md$/.test(file) ? "text/markdown; charset=utf-8" : "text/html; charset=utf-8";
    return c.body(fs.readFileSync(file), 200, { "content-type": type, "x-docent-file": path.basename(file) });
  });

  app.notFound((c) => errorResponse(notFound(`Unknown route: ${c.req.method} ${c.req.path}.`, null, "unknown_url")));
  app.onError((error, c) => {
    const docentError = toDocentError(error);
    if (docentError.code === "INTERNAL_SERVER_ERROR") log(`error: ${c.req.method} ${c.req.path}: ${(error as Error)?.stack ?? error}`);
    return errorResponse(docentError);
  });
  return app;
}
