/**
 * A path under PUBLIC_URL. The address may carry a path of its own (docent
 * behind a proxy at https://example.com/docent/): it is kept, where
 * `new URL("/docs/", base)` would resolve from the host's root and drop it.
 */
export function underPublicUrl(publicUrl: string, path: string): string {
  const base = new URL(publicUrl);
  base.search = "";
  base.hash = "";
  if (!base.pathname.endsWith("/")) base.pathname += "/";
  return new URL(path.replace(/^\/+/, ""), base).toString();
}

/** A URL's host name (`[::1]` for IPv6), or null for no URL or one that does not parse. */
export function hostnameOf(url: string | undefined): string | null {
  try {
    return url ? new URL(url).hostname : null;
  } catch {
    return null;
  }
}
