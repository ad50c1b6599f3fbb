import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { gunzipSync } from "node:zlib";

/**
 * Software jargon, as the cspell spell checker's dictionaries keep it: the
 * lower-case entries of its software-terms dictionary (`monorepo`, `webhook`,
 * `codebase`, `worktree`), less every name cspell's product dictionaries list
 * (software tools, popular npm packages, companies; `webpack`, `lodash`,
 * `memcached`) and the products read in the entries by hand (`PRODUCTS`).
 * General word lists lag behind what developers write every day; a spell
 * checker's lists for code and its docs are kept up with it. The packages are
 * pinned: a new version is read through again before it is taken.
 */
let terms: Set<string> | undefined;

/**
 * Products the software-terms dictionary writes in lower case that no
 * product dictionary lists, found by reading, at the pinned version, the 731
 * of its entries that join two English words, are no word themselves and
 * pass the product dictionaries: what a maker names (a product, service,
 * tool, language, protocol or file format: `logstash`, `kerberos`,
 * `truetype`), not a kind of thing (`devtools`, `pubsub`). The name rule must
 * still take them for products ("how do I ship events to logstash?").
 */
const PRODUCTS = [
  "activesupport",
  "autoconf",
  "bigtable",
  "blocklint",
  "checkstyle",
  "codelens",
  "dataloader",
  "deepmind",
  "deepspeed",
  "fortran",
  "gettext",
  "gitlens",
  "graylog",
  "hyperdisk",
  "ingres",
  "javadoc",
  "jumbotron",
  "kerberos",
  "libarchive",
  "libgranite",
  "libtool",
  "logstash",
  "megatron",
  "minitest",
  "openid",
  "powershell",
  "rackconnect",
  "restructuredtext",
  "samaba",
  "schemastore",
  "shaderlab",
  "smalltalk",
  "solaris",
  "treesitter",
  "truetype",
  "unittest",
  "visualstudio",
  "webdings",
  "webdriver",
  "webkit",
  "wireguard",
];

const require = createRequire(import.meta.url);
/** Each list holds more (about 590 software tools, the fewest, at the pinned versions). */
const MIN_ENTRIES = 500;

/** The words of a cspell dictionary package's dictionary, found by name in its `cspell-ext.json` (plain or gzipped word lists). */
function words(pkg: string, name: string): string[] {
  const ext = require.resolve(`${pkg}/cspell-ext.json`);
  const definitions = (JSON.parse(fs.readFileSync(ext, "utf8")) as { dictionaryDefinitions?: Array<{ name: string; path: string }> }).dictionaryDefinitions;
  const file = definitions?.find((d) => d.name === name)?.path;
  if (!file || !/\.txt(\.gz)?$/.test(file)) throw new Error(`${pkg} has no word list named ${name}`);
  const raw = fs.readFileSync(path.resolve(path.dirname(ext), file));
  const text = file.endsWith(".gz") ? gunzipSync(raw).toString("utf8") : raw.toString("utf8");
  const entries = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"));
  // A list read short (emptied, or its format changed) would let products pass as jargon: better a server that does not start.
  if (entries.length < MIN_ENTRIES) throw new Error(`${pkg}'s word list ${name} holds ${entries.length} entries, fewer than ${MIN_ENTRIES}`);
  return entries;
}

function load(): Set<string> {
  const products = new Set(
    [
      ...words("@cspell/dict-software-terms", "software-tools"),
      ...words("@cspell/dict-npm", "npm"),
      ...words("@cspell/dict-companies", "companies"),
      ...PRODUCTS,
    ].map((name) => name.toLowerCase()),
  );
  return new Set(words("@cspell/dict-software-terms", "softwareTerms").filter((line) => /^[a-z]+$/.test(line) && !products.has(line)));
}

/** Whether a lower-case word is software jargon and no product (loaded on first use, ~30 ms; at a server's start, see warm-up.ts). */
export function isSoftwareTerm(word: string): boolean {
  terms ??= load();
  return terms.has(word);
}
