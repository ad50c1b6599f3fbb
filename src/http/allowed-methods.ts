/**
 * The methods an app serves at a path, read from its own route table
 * (`app.routes`; middleware, registered for ALL, aside), so a known path
 * asked with another method is answered 405 with `Allow`, not 404 as if it
 * did not exist. A GET route answers HEAD too, as Hono serves it.
 */
export function allowedMethods(routes: readonly { method: string; path: string }[]): (path: string) => string[] {
  let table: { method: string; pattern: RegExp }[] | null = null;
  const compile = () =>
    routes
      .filter((r) => r.method !== "ALL")
      .map((r) => ({
        method: r.method,
        pattern: new RegExp(
          `^${r.path
            .split("/")
            .map((segment) => (segment === "*" ? ".*" : segment.startsWith(":") ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
            .join("/")}$`,
        ),
      }));
  return (path) => {
    // Compiled at the first unmatched request, once every route is registered.
    table ??= compile();
    const methods = new Set(table.filter((t) => t.pattern.test(path)).map((t) => t.method));
    if (methods.has("GET")) methods.add("HEAD");
    return [...methods];
  };
}
