import type { AppServices } from "../app-services.ts";

export type TrpcServices = Pick<AppServices, "catalog" | "models" | "engine" | "keys">;

export interface TrpcContext {
  services: TrpcServices;
  authorization: string | null;
}

/** The testable part of the context: dependencies plus the caller's credentials. */
export const createContextInner = (services: TrpcServices, authorization: string | null): TrpcContext => ({ services, authorization });
