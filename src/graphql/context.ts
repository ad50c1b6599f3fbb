import type { AppServices } from "../app-services.ts";
import type { ApiKeyInfo } from "../core/key-store.ts";

export interface GraphQLContext {
  services: Pick<AppServices, "catalog" | "models" | "engine">;
  apiKey: ApiKeyInfo;
  /** The HTTP request, as Yoga passes it; its signal ends when the client goes away. */
  request: Request;
}
