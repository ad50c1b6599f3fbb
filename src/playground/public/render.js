// The answer's Markdown as safe HTML, with its citation markers linked to the references.

import { citationMarkers } from "./citations.js";
import { Marked } from "./vendor/marked.js";
import DOMPurify from "./vendor/purify.js";

const escapeHtml = (text) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// Raw HTML in an answer is shown as text, never parsed; images become links
// (the page's CSP would block other hosts' images anyway). A link reference
// definition (`[1]: https://…`, which quoted documentation or a model misled by
// it can write) would turn every `[1]` of the answer into a link to its URL, so
// none is read.
const markdown = new Marked({
  gfm: true,
  tokenizer: { def: () => undefined },
  renderer: {
    html: ({ text }) => escapeHtml(text),
    image: ({ href, text }) => `<a href="${escapeHtml(href)}">${escapeHtml(text || href)}</a>`,
  },
});

// DOMPurify as a second line: it drops javascript: links and anything marked lets through.
DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "A") {
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer");
  }
});

const isWebUrl = (url) => /^https?:\/\//i.test(url);
// Where the server's citation markers stood, through Markdown rendering: characters of Unicode's
// private use area, taken out of the answer first so that only these exist.
const PRIVATE = /[\uE000\uE001]/g;
const PLACEHOLDER = /\uE000(\d+)\uE001/g;
/**
 * A link's text as a reader takes it in: Unicode's compatibility forms folded
 * (`１`, `¹`), and nothing kept but letters, digits, brackets and commas (no
 * invisible, combining or spacing characters, no dots).
 */
const asRead = (text) =>
  text
    .normalize("NFKC")
    .replace(/\p{Default_Ignorable_Code_Point}/gu, "")
    .replace(/[^\p{L}\p{N}\p{Ps}\p{Pe},]/gu, "");
/** Read so, a citation (`1`, `[1]`, `【1, 2】`) or a text holding one. */
const CITATION_LIKE = /^\p{Ps}?\p{Nd}{1,3}(?:,\p{Nd}{1,3})*\p{Pe}?$|\p{Ps}\p{Nd}{1,3}(?:,\p{Nd}{1,3})*\p{Pe}/u;

/**
 * Renders `text` into `root`; `refs` are the url_references, `titles` a Map from
 * URL to page title. The citation markers are those the server reads (its own
 * reader, citations.js): not `argv[2]`, `\[1]` or code.
 */
export function renderAnswer(root, text, refs, titles) {
  const answer = text.replace(PRIVATE, "");
  const markers = citationMarkers(answer).filter(({ numbers }) => numbers.every((n) => isWebUrl(refs[n - 1] ?? "")));
  let source = "";
  let at = 0;
  markers.forEach(({ index, length }, i) => {
    source += `${answer.slice(at, index)}\uE000${i}\uE001`;
    at = index + length;
  });
  root.innerHTML = DOMPurify.sanitize(markdown.parse(source + answer.slice(at)), { RETURN_TRUSTED_TYPE: true });
  // A link of the Markdown's whose text reads as a citation, or holds one, is its text only: it would pass for one.
  for (const link of root.querySelectorAll("a")) {
    if (CITATION_LIKE.test(asRead(link.textContent)) || link.textContent.includes("\uE000")) link.replaceWith(...link.childNodes);
  }
  // A marker written where no citation can stand (a link's title or address) is its text there.
  // (An address holds it percent-encoded.)
  const marker = (i) => answer.slice(markers[i].index, markers[i].index + markers[i].length);
  const asWritten = (value) => value.replace(PLACEHOLDER, (_, i) => marker(i)).replace(/%EE%80%80(\d+)%EE%80%81/gi, (_, i) => encodeURI(marker(i)));
  for (const element of root.querySelectorAll("*"))
    for (const attribute of element.attributes) if (/\uE000|%EE%80%80/i.test(attribute.value)) attribute.value = asWritten(attribute.value);
  linkCitations(root, markers, answer, refs, titles);
}

function linkCitations(root, markers, answer, refs, titles) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes = [];
  while (walker.nextNode()) nodes.push(walker.currentNode);
  for (const node of nodes) {
    const text = node.nodeValue;
    if (!text.includes("\uE000")) continue;
    // In code (where Markdown and the server's reader disagree on a code span) a marker is its text.
    const inCode = node.parentElement.closest("code, pre") !== null;
    const parts = [];
    let last = 0;
    for (const match of text.matchAll(PLACEHOLDER)) {
      const { index, length, numbers } = markers[Number(match[1])];
      parts.push(text.slice(last, match.index), inCode ? answer.slice(index, index + length) : citation(numbers, refs, titles));
      last = match.index + match[0].length;
    }
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
