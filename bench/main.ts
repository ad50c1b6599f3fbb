const [which = "rest"] = process.argv.slice(2);
const benches: Record<string, () => Promise<unknown>> = {
  rest: () => import("./rest.ts"),
  retrieval: () => import("./retrieval.ts"),
  vectors: () => import("./vectors.ts"),
  "rate-limit": () => import("./rate-limit.ts"),
  fuzz: () => import("./fuzz.ts"),
  schemas: () => import("./schemas.ts"),
  sync: () => import("./sync.ts"),
  "coverage-bands": () => import("./coverage-bands.ts"),
  "similar-questions": () => import("./similar-questions.ts"),
  "follow-ups": () => import("./follow-ups.ts"),
};
const run = benches[which];
if (!run) {
  console.error(`Unknown benchmark '${which}'. Available: ${Object.keys(benches).join(", ")}`);
  process.exit(2);
}
await run();
