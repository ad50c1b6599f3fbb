/**
 * A typed client for TypeScript services: `import type { AppRouter }` gives
 * the spec's request and response types end to end. See README "tRPC".
 */
export type { AppRouter } from "./router.ts";
