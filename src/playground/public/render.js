// The answer's Markdown as safe HTML, with its citation markers linked to the references.
import { Marked } from "./vendor/marked.js";
import DOMPurify from "./vendor/purify.js";

const escapeHtml = (text) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A link's text that reads as a citation marker's numbers: `1`, `1, 3`. */
const CITATION_TEXT = /^\d{1,3}(?:\s*,\s*\d{1,3})*$/;

// Raw HTML in an answer is shown as text, never parsed; images become links
// (the page's CSP would block other hosts' images anyway). An answer's citation
// markers are linked to its references only: a link reference definition
// (`[1]: https://…`, which quoted documentation or a model misled by it can
// write) would turn every `[1]` of the answer into a link to its URL, so none is
// read, and a link written as a citation (`[1](https://…)`) stays its marker.
const markdown = new Marked({
  gfm: true,
  tokenizer: { def: () => undefined },
  renderer: {
    html: ({ text }) => escapeHtml(text),
    image: ({ href, text }) => `<a href="${escapeHtml(href)}">${escapeHtml(text || href)}</a>`,
    link: ({ text }) => (CITATION_TEXT.test(text.trim()) ? `[${escapeHtml(text.trim())}]` : false),
  },
});

// DOMPurify as a second line: it drops javascript: links and anything marked lets through.
DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "A") {
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer");
  }
});

/** The same marker the server renumbers: `[2]`, or `[1, 3]`. */
const MARKER = /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g;
const isWebUrl = (url) => /^https?:\/\//i.test(url);

/** Renders `text` into `root`; `refs` are the url_references, `titles` a Map from URL to page title. */
export function renderAnswer(root, text, refs, titles) {
  root.innerHTML = DOMPurify.sanitize(markdown.parse(text), { RETURN_TRUSTED_TYPE: true });
  linkCitations(root, refs, titles);
}

function linkCitations(root, refs, titles) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => (node.parentElement.closest("a, code, pre") ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  const nodes = [];
  while (walker.nextNode()) nodes.push(walker.currentNode);
  for (const node of nodes) {
    const text = node.nodeValue;
    let last = 0;
    const parts = [];
    for (const match of text.matchAll(MARKER)) {
      const numbers = match[1].split(",").map((n) => Number(n.trim()));
      if (numbers.some((n) => !isWebUrl(refs[n - 1] ?? ""))) continue;
      parts.push(text.slice(last, match.index), citation(numbers, refs, titles));
      last = match.index + match[0].length;
    }
    if (parts.length === 0) continue;
    node.replaceWith(...parts, text.slice(last));
  }
}

/** `[1, 2]` with each number a link to its page. */
function citation(numbers, refs, titles) {
  const sup = document.createElement("sup");
  sup.className = "cite";
  sup.append("[");
  numbers.forEach((n, i) => {
    if (i > 0) sup.append(", ");
    const url = refs[n - 1];
    const link = document.createElement("a");
    link.href = url;
    link.textContent = String(n);
    link.title = titles.get(url) ?? url;
    link.target = "_blank";
    link.rel = "noopener noreferrer";
    link.setAttribute("aria-label", `Reference ${n}: ${titles.get(url) ?? url}`);
    sup.append(link);
  });
  sup.append("]");
  return sup;
}

/** The reference list: each page's title linked, its URL below. */
export function renderReferences(list, refs, titles) {
  list.replaceChildren(
    ...refs.map((url) => {
      const item = document.createElement("li");
      const title = titles.get(url) ?? url;
      if (isWebUrl(url)) {
        const link = document.createElement("a");
        link.href = url;
        link.textContent = title;
        link.target = "_blank";
        link.rel = "noopener noreferrer";
        item.append(link);
      } else item.append(title);
      const address = document.createElement("span");
      address.className = "url";
      address.textContent = url;
      item.append(address);
      return item;
    }),
  );
}
