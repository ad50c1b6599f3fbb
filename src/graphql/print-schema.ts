import fs from "node:fs";
import path from "node:path";
import { printedSchema } from "./schema/index.ts";

/** `npm run schema`: rewrites schema.graphql at the repository root from the code. */
export const SCHEMA_FILE = path.resolve(import.meta.dirname, "../../schema.graphql");

if (import.meta.url === `file://${process.argv[1]}`) {
  fs.writeFileSync(SCHEMA_FILE, printedSchema());
  console.log(`wrote ${path.relative(process.cwd(), SCHEMA_FILE)}`);
}
