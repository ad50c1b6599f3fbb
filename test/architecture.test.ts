import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The shape the project keeps (STYLE.md): a core that imports no transport,
 * database or SDK; interfaces that reach the core and auth, not each other;
 * no import cycles at load. Read from the sources, so a change that breaks
 * one fails here rather than in a review.
 */
const SRC = path.resolve(import.meta.dirname, "../src");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.ts$/.test(entry.name) && !/\.(test|contract|checks)\.ts$/.test(entry.name) ? [full] : [];
  });
}

/** Each static import or re-export: what it names and whether it is for types only (erased at run time). */
function importsOf(file: string): Array<{ from: string; typeOnly: boolean }> {
  const text = fs.readFileSync(file, "utf8");
  const found: Array<{ from: string; typeOnly: boolean }> = [];
  for (const match of text.matchAll(/^(import|export)\s+(type\s+)?([^;]*?)\s+from\s+"([^"]+)"/gms)) {
    const clause = match[3]!;
    // `import { type A, type B } from` is erased too.
    const allTypes =
      /^\{[^}]*\}$/s.test(clause.trim()) &&
      clause
        .replace(/[{}\s]/g, "")
        .split(",")
        .filter(Boolean)
        .every((n) => n.startsWith("type"));
    found.push({ from: match[4]!, typeOnly: Boolean(match[2]) || allTypes });
  }
  for (const match of text.matchAll(/^import\s+"([^"]+)"/gm)) found.push({ from: match[1]!, typeOnly: false });
  return found;
}

const resolve = (file: string, from: string) => (from.startsWith(".") ? path.resolve(path.dirname(file), from) : null);
const area = (file: string) => path.relative(SRC, file).split(path.sep)[0]!;
const files = sourceFiles(SRC);

describe("architecture", () => {
  it("the core imports nothing but itself, zod and node:crypto", () => {
    const outside = files
      .filter((f) => area(f) === "core")
      .flatMap((f) => importsOf(f).map((i) => ({ file: path.relative(SRC, f), ...i, target: resolve(f, i.from) })))
      .filter(({ from, target }) => (target ? area(target) !== "core" : from !== "zod" && from !== "node:crypto"));
    expect(outside.map(({ file, from }) => `${file} → ${from}`)).toEqual([]);
  });

  it("GraphQL and tRPC reach the core and auth, not REST's files (HTTP's status table apart)", () => {
    const crossing = files
      .filter((f) => area(f) === "graphql" || area(f) === "trpc")
      .flatMap((f) => importsOf(f).map((i) => ({ file: path.relative(SRC, f), target: resolve(f, i.from) })))
      .filter(({ target }) => target && ["http", "mcp", "graphql", "trpc"].includes(area(target)))
      .filter(({ file, target }) => area(target!) !== file.split(path.sep)[0] && !target!.endsWith("http/error-response.ts"));
    expect(crossing.map(({ file, target }) => `${file} → ${path.relative(SRC, target!)}`)).toEqual([]);
  });

  it("has no import cycle at load time (type-only imports are erased)", () => {
    const graph = new Map(
      files.map((f) => [f, importsOf(f).flatMap((i) => (i.typeOnly ? [] : [resolve(f, i.from)]).filter((t): t is string => t !== null && files.includes(t)))]),
    );
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const visit = (file: string, stack: string[]) => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "open") {
        cycles.push([...stack.slice(stack.indexOf(file)), file].map((f) => path.relative(SRC, f)).join(" → "));
        return;
      }
      state.set(file, "open");
      for (const next of graph.get(file) ?? []) visit(next, [...stack, file]);
      state.set(file, "done");
    };
    for (const file of files) visit(file, []);
    expect(cycles).toEqual([]);
  });
});
