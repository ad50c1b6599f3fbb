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
/** Read so, a citation (`1`, `[1]`, `【1, 2】`) or a text holding one in brackets other than parentheses (`open(2)` is a man page). */
const CITATION_LIKE = /^\p{Ps}?\p{Nd}{1,3}(?:,\p{Nd}{1,3})*\p{Pe}?$|(?!\()\p{Ps}\p{Nd}{1,3}(?:,\p{Nd}{1,3})*\p{Pe}/u;

/**
 * Where the server's citation markers stood, carried through Markdown
 * rendering: private-use characters around a word no answer can know (drawn
 * afresh for each rendering; an answer can write the characters themselves,
 * as `&#xE000;`) and the marker's number.
 */
function placeholders() {
  const word = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => String.fromCharCode(97 + (b % 26))).join("");
  return {
    at: (i) => `\uE000${word}${i}\uE001`,
    pattern: () => new RegExp(`\uE000${word}(\\d+)\uE001|%EE%80%80${word}(\\d+)%EE%80%81`, "gi"),
  };
}

/**
 * Renders `text` into `root`; `refs` are the url_references, `titles` a Map from
 * URL to page title. The citation markers are those the server reads (its own
 * reader, citations.js): not `argv[2]`, `\[1]` or code.
 */
export function renderAnswer(root, text, refs, titles) {
  const markers = citationMarkers(text).filter(({ numbers }) => numbers.every((n) => isWebUrl(refs[n - 1] ?? "")));
  const marks = placeholders();
  // No explicit direction overrides, embeddings or isolates between the markers (which are read in the text as the
  // server sent it): one in the text around a link would reorder it and its site label (a script sets its own direction).
  const plain = (part) => part.replace(/[\u202a-\u202e\u2066-\u2069]/g, "");
  let source = "";
  let at = 0;
  markers.forEach(({ index, length }, i) => {
    source += `${plain(text.slice(at, index))}${marks.at(i)}`;
    at = index + length;
  });
  source += plain(text.slice(at));
  try {
    root.innerHTML = DOMPurify.sanitize(markdown.parse(source), { RETURN_TRUSTED_TYPE: true });
  } catch {
    // Nesting too deep for the parser (thousands of `> `): the answer as plain text, its citations still linked.
    root.replaceChildren(source);
  }
  const written = (i) => (markers[i] ? text.slice(markers[i].index, markers[i].index + markers[i].length) : "");
  for (const link of root.querySelectorAll("a")) {
    // A link of the Markdown's whose text reads as a citation, or holds one, is its text only: it would pass for one.
    if (CITATION_LIKE.test(asRead(link.textContent)) || marks.pattern().test(link.textContent)) link.replaceWith(...link.childNodes);
    // Any other link that is not one of the references names its site, whatever its text looks like.
    else if (!refs.includes(link.getAttribute("href")) && !showsAddress(link)) link.after(siteOf(link));
  }
  // A marker written where no citation can stand (a link's title or address; an address holds it percent-encoded) is its text there.
  for (const element of root.querySelectorAll("*"))
    for (const attribute of element.attributes) {
      const value = attribute.value.replace(marks.pattern(), (_, i, encoded) => (i ? written(Number(i)) : encodeURI(written(Number(encoded)))));
      if (value !== attribute.value) attribute.value = value;
    }
  // One text node per run of text: the parser splits long ones (at 65,536 characters), which could cut a placeholder.
  root.normalize();
  linkCitations(root, markers, written, marks.pattern, refs, titles);
}

/** Whether a link's text is its own address (a bare URL or e-mail address, linked as itself). */
function showsAddress(link) {
  const text = link.textContent.trim();
  return ["", "http://", "mailto:"].some((prefix) => link.getAttribute("href") === prefix + text);
}

/** ` (evil.example)`: the site a link of the answer's Markdown goes to. */
function siteOf(link) {
  const site = document.createElement("span");
  site.className = "link-site";
  let url = null;
  try {
    url = new URL(link.getAttribute("href") ?? "", location.href);
  } catch {}
  site.textContent = ` (${url ? url.host || url.protocol : "?"})`;
  return site;
}

function linkCitations(root, markers, written, pattern, refs, titles) {
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
    for (const match of text.matchAll(pattern())) {
      const marker = markers[Number(match[1])];
      if (!marker) continue;
      parts.push(text.slice(last, match.index), inCode ? written(Number(match[1])) : citation(marker.numbers, refs, titles));
      last = match.index + match[0].length;
    }
    if (parts.length > 0) node.replaceWith(...parts, text.slice(last));
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
