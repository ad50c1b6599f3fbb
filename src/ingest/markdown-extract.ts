import { tidyText, type ExtractedPage, type Section } from "./section.ts";

/** GitHub-style heading slug, the usual anchor of rendered Markdown. */
export function slugify(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .trim()
    .replace(/\s/g, "-");
}

/** Markdown inline syntax removed; code spans kept verbatim (`<key>` in code is text, not a tag). */
function plain(line: string): string {
  const code: string[] = [];
  return line
    .replace(/`([^`]+)`/g, (_, inner: string) => `\u0000${code.push(inner) - 1}\u0000`)
    .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/(\*\*|__)(.+?)\1/g, "$2")
    .replace(/\u0000(\d+)\u0000/g, (_, i: string) => code[Number(i)]!);
}

/** An inline link (not an image): `[text](destination "title")`. */
const LINK = /(?<!!)\[([^\]]*)\]\(\s*(?:<([^>]*)>|([^)\s]+))(?:\s+["'][^)]*["'])?\s*\)/g;

/** Splits Markdown/MDX into sections at ATX headings (ignoring fenced code and front matter). */
export function extractMarkdown(source: string): ExtractedPage {
  let text = source.replace(/\r/g, "");
  let title = "";
  const front = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (front) {
    title = /^title:\s*["']?(.+?)["']?\s*$/m.exec(front[1]!)?.[1] ?? "";
    text = text.slice(front[0].length);
  }
  const sections: Section[] = [];
  const stack: Array<{ level: number; text: string }> = [];
  let current: Section = { headings: [], anchor: "", text: "" };
  let fenced = false;
  const flush = () => {
    const body = tidyText(current.text);
    if (body) sections.push({ ...current, text: body });
  };
  for (const line of text.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      // Kept as a fence, so answers can quote the code whole.
      current.text += fenced ? "\n```\n" : "```\n\n";
      continue;
    }
    const heading = fenced ? null : /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) {
      flush();
      const level = heading[1]!.length;
      const headingText = plain(heading[2]!).trim();
      if (level === 1 && !title) {
        title = headingText;
        current = { headings: [], anchor: "", text: "" };
        continue;
      }
      while (stack.length && stack.at(-1)!.level >= level) stack.pop();
      stack.push({ level, text: headingText });
      current = { headings: stack.map((h) => h.text), anchor: slugify(headingText), text: "" };
      continue;
    }
    if (!fenced && /^(import|export)\s/.test(line)) continue;
    if (!fenced) {
      for (const [, text, bracketed, bare] of line.matchAll(LINK)) {
        const href = bracketed ?? bare ?? "";
        if (href && !href.startsWith("#")) (current.links ??= []).push({ href, text: plain(text!) });
      }
    }
    current.text += `${fenced ? line : plain(line)}\n`;
  }
  flush();
  return { title, sections };
}
