/** robots.txt: the rules of the group for our user agent (or `*`), longest match wins. */
export interface RobotsRules {
  allowed(path: string): boolean;
  sitemaps: string[];
}

export function parseRobots(text: string, agent = "docent"): RobotsRules {
  const groups: Array<{ agents: string[]; rules: Array<{ allow: boolean; path: string }> }> = [];
  const sitemaps: string[] = [];
  let current: (typeof groups)[number] | null = null;
  let lastWasAgent = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, "").trim();
    const m = /^([A-Za-z-]+)\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    const key = m[1]!.toLowerCase();
    const value = m[2]!.trim();
    if (key === "sitemap") sitemaps.push(value);
    else if (key === "user-agent") {
      if (!current || !lastWasAgent) groups.push((current = { agents: [], rules: [] }));
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
      continue;
    } else if ((key === "allow" || key === "disallow") && current) {
      if (value) current.rules.push({ allow: key === "allow", path: value });
    }
    lastWasAgent = false;
  }
  const group = groups.find((g) => g.agents.some((a) => a !== "*" && agent.toLowerCase().includes(a))) ?? groups.find((g) => g.agents.includes("*"));
  const rules = group?.rules ?? [];
  const matches = (rule: string, path: string) => {
    const pattern = rule.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*");
    return new RegExp(`^${pattern.endsWith("\\$") ? pattern.slice(0, -2) + "$" : pattern}`).test(path);
  };
  return {
    sitemaps,
    allowed(path) {
      let best: { allow: boolean; length: number } | null = null;
      for (const rule of rules) {
        if (!matches(rule.path, path)) continue;
        if (!best || rule.path.length > best.length || (rule.path.length === best.length && rule.allow)) best = { allow: rule.allow, length: rule.path.length };
      }
      return best?.allow ?? true;
    },
  };
}
