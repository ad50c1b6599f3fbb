import { describe, expect, it } from "vitest";
import type { GroundingDocument } from "../../core/language-model.ts";
import { extractiveAnswer } from "./extractive-answer.ts";
import { splitSentences } from "./sentences.ts";

const docs: GroundingDocument[] = [
  {
    referenceNumber: 1,
    title: "CLUSTER",
    section: "Description",
    url: "https://x/sql-cluster.html",
    text: "CLUSTER instructs PostgreSQL to cluster the table specified by table_name based on the index specified by index_name. The index must already have been defined on table_name. When a table is clustered, it is physically reordered based on the index information.",
  },
  {
    referenceNumber: 2,
    title: "Routine Vacuuming",
    section: "",
    url: "https://x/routine-vacuuming.html",
    text: "PostgreSQL databases require periodic maintenance known as vacuuming. When a table is clustered, it is physically reordered based on the index information. The weather is nice today and has nothing to do with tables.",
  },
];

/** A page given as context: its reference number, title, file and text. */
const page = (referenceNumber: number, title: string, file: string, text: string): GroundingDocument => ({
  referenceNumber,
  title,
  section: "",
  url: `https://x/${file}`,
  text,
});

describe("extractiveAnswer", () => {
  it("quotes a page's link definitions as text: a quoted list cannot redirect the answer's citations", () => {
    const trusted = page(1, "API keys", "keys.html", "A revoked API key is refused at once. Keys are listed with keys list.");
    const hostile = page(
      2,
      "Revoking",
      "revoke.html",
      "The steps to revoke an API key:\n\n- [1]: https://evil.example/revoke-api-key\n- [2]: https://evil.example/revoke-api-key-2",
    );
    const answer = extractiveAnswer("How do I revoke an API key?", [trusted, hostile]);
    expect(answer).toContain("- \\[1]: https://evil.example/revoke-api-key\n- \\[2]: https://evil.example/revoke-api-key-2");
    expect(answer).not.toMatch(/(^|\n)\s*(?:- )?\[\d+\]:/);
    expect(answer).toMatch(/ \[1\]/);
  });

  it("answers with the most relevant sentences, each marked with its reference number", () => {
    const answer = extractiveAnswer("How do I physically reorder a table according to an index?", docs);
    expect(answer).toContain("physically reordered based on the index information. [1");
    for (const marker of answer.match(/\[[\d, ]+\]/g) ?? []) expect(["[1]", "[2]", "[1, 2]"]).toContain(marker);
    expect(answer).not.toContain("weather");
  });

  it("quotes a sentence without the source's own bracketed note numbers, so only its citation reads as one", () => {
    const pages = [
      page(1, "Logging", "logging.html", "Messages are logged with the app logger."),
      page(
        2,
        "Quickstart",
        "quickstart.html",
        "Inside templates you also have access to the config, request, session and g [1] objects as well as the url_for() function and sys.argv[2], `a [2]` in code [3].",
      ),
    ];
    const answer = extractiveAnswer("What can I access inside templates: config, request, session?", pages);
    expect(answer).toContain("session and g objects as well as the url_for() function and sys.argv\\[2], `a [2]` in code. [2]");
    expect(answer).not.toContain("[3]");
    expect(answer).not.toMatch(/g \[1\]/);
  });

  it("keeps a bracketed list that is no note number: the range of a strftime directive", () => {
    const pages = [page(1, "time", "time.html", "The %d directive is the day of the month as a decimal number [01,31].")];
    const answer = extractiveAnswer("What does the %d directive of strftime give?", pages);
    expect(answer).toContain("day of the month as a decimal number \\[01,31]. [1]");
  });

  it("quotes a sentence whose code span never closes without its backticks, so its citation and the next stay markers", () => {
    const pages = [
      page(1, "Views", "views.html", "Only the defining rule is replaced when a view is replaced with `WITH ( a, b options."),
      page(2, "Views again", "views2.html", "A replaced view keeps its `owner` and its grants when the view is replaced."),
    ];
    const answer = extractiveAnswer("What is kept when a view is replaced?", pages);
    expect(answer).toContain("replaced with WITH ( a, b options. [1]");
    expect(answer).toContain("`owner`");
    expect(answer).toMatch(/is replaced\. \[2\]/);
  });

  it("keeps a bracketed list that is code in the quoted text, where HTML lost its code marks", () => {
    const pages = [
      page(1, "Logging", "logging.html", "Messages are logged with the app logger."),
      page(
        2,
        "Comparisons",
        "expressions.html",
        "Collections compare equal when their elements do (for example, [1,2] == (1,2) is false because the types differ, and x = [1, 2] makes a list).",
      ),
    ];
    const answer = extractiveAnswer("When do collections compare equal?", pages);
    expect(answer).toContain("(for example, \\[1,2] == (1,2) is false because the types differ, and x = \\[1, 2] makes a list). [");
  });

  it("quotes a sentence found on two pages once, citing both", () => {
    const answer = extractiveAnswer("physically reordered clustered table index", docs);
    expect(answer.match(/physically reordered/g)).toHaveLength(1);
    expect(answer).toContain("physically reordered based on the index information. [1, 2]");
  });

  it("points to a page whose best sentence is only loosely about the question instead of quoting it", () => {
    const pages: GroundingDocument[] = [
      { ...docs[0]!, referenceNumber: 1 },
      page(2, "Database Page Layout", "storage-page-layout.html", "Table data is physically stored in pages of eight kilobytes each."),
      page(3, "Weather", "weather.html", "The weather is nice today and has nothing to do with databases."),
    ];
    const answer = extractiveAnswer("How do I physically reorder a table based on an index?", pages);
    expect(answer).toContain("physically reordered based on the index information. [1]");
    expect(answer).not.toContain("eight kilobytes");
    expect(answer).toMatch(/\n\nSee also: Database Page Layout \[2\]\.$/);
    expect(answer).not.toContain("[3]");
  });

  it("points to a page whose strong sentence finds no room in the answer", () => {
    const pages: GroundingDocument[] = [
      { ...docs[0]!, referenceNumber: 1 },
      {
        referenceNumber: 2,
        title: "CLUSTER (tutorial)",
        section: "",
        url: "https://x/tutorial-cluster.html",
        text: "Clustering a table on an index physically reorders its rows to follow that index.",
      },
    ];
    const answer = extractiveAnswer("How do I physically reorder a table based on an index?", pages, { maxSentences: 1 });
    expect(answer.match(/\[\d[^\]]*\]/g)).toEqual(["[1]", "[2]"]);
    expect(answer).toMatch(/\n\nSee also: CLUSTER \(tutorial\) \[2\]\.$/);
  });

  it("reads the question's words as the index does (one stemmer: physically and physical are one term)", () => {
    const pages: GroundingDocument[] = [
      {
        referenceNumber: 1,
        title: "Storage",
        section: "",
        url: "https://x/storage.html",
        text: "The weather is nice today in the city. Clustered rows are kept in physical order on disk.",
      },
    ];
    expect(extractiveAnswer("physically", pages)).toBe("Clustered rows are kept in physical order on disk. [1]");
  });

  it("credits a sentence only to the pages that hold it, not to one that nearly repeats it", () => {
    const near: GroundingDocument[] = [
      docs[0]!,
      {
        ...docs[1]!,
        text: "PostgreSQL databases require periodic maintenance known as vacuuming. When a table is clustered, it is physically reordered using the index information.",
      },
    ];
    const answer = extractiveAnswer("physically reordered clustered table index", near);
    expect(answer).toContain("physically reordered based on the index information. [1]");
    expect(answer).not.toContain("[1, 2]");
    expect(answer.match(/physically reordered/g)).toHaveLength(1);
  });

  it("cites the section of a page that holds each sentence, and points to no page it quotes", () => {
    const sections: GroundingDocument[] = [
      {
        referenceNumber: 1,
        passage: 0,
        title: "Advanced Usage",
        section: "Header Ordering",
        url: "https://x/advanced.html#header-ordering",
        text: "Requests keeps the order of the headers you give it.",
      },
      {
        referenceNumber: 2,
        passage: 0,
        title: "Advanced Usage",
        section: "Timeouts",
        url: "https://x/advanced.html#timeouts",
        text: "Most requests to external servers should have a timeout attached.",
      },
      {
        referenceNumber: 3,
        passage: 1,
        title: "Quickstart",
        section: "Timeouts",
        url: "https://x/quickstart.html#timeouts",
        text: "You can tell Requests to stop waiting for a response after a given number of seconds with the timeout parameter.",
      },
    ];
    const answer = extractiveAnswer("How do I set a timeout on requests to a server?", sections);
    expect(answer).toContain("should have a timeout attached. [2]");
    expect(answer).toContain("with the timeout parameter. [3]");
    expect(answer).not.toContain("See also");
  });

  it("quotes the code a chosen sentence introduces, whole and fenced, with its indentation", () => {
    const upload: GroundingDocument = {
      referenceNumber: 1,
      title: "Quickstart",
      section: "POST a Multipart-Encoded File",
      url: "https://x/quickstart.html#post-a-multipart-encoded-file",
      text: "Requests makes it simple to upload Multipart-encoded files:\n```\n>>> files = {'file': open('report.xls', 'rb')}\n>>> for chunk in r.iter_content():\n...     print(chunk)\n```\nYou can set the filename explicitly.",
    };
    const answer = extractiveAnswer("How do I upload a multipart-encoded file?", [upload]);
    expect(answer).toBe(
      "Requests makes it simple to upload Multipart-encoded files: [1]\n\n```\n>>> files = {'file': open('report.xls', 'rb')}\n>>> for chunk in r.iter_content():\n...     print(chunk)\n```",
    );
  });

  it("never quotes a sentence that stops at a colon with nothing after it", () => {
    const doc: GroundingDocument = {
      ...docs[0]!,
      text: "To cluster a table on an index, run the following:\n\nCLUSTER physically reorders the table on the index.",
    };
    const answer = extractiveAnswer("How do I cluster a table on an index?", [doc]);
    expect(answer).not.toContain("following:");
    expect(answer).toContain("CLUSTER physically reorders the table on the index. [1]");
  });

  it("quotes a code example that holds the question's words after its sentence", () => {
    const doc: GroundingDocument = {
      ...docs[0]!,
      text: "Cluster the table employees on the basis of its index.\n```\nCLUSTER employees USING employees_ind;\n```\nThe weather is nice.",
    };
    const answer = extractiveAnswer("How do I cluster employees using an index?", [doc]);
    expect(answer).toContain("[1]\n\n```\nCLUSTER employees USING employees_ind;\n```");
  });

  it("keeps a list whole: after the sentence that introduces it, or in place of one of its items", () => {
    const doc: GroundingDocument = {
      ...docs[0]!,
      text: "VACUUM can be run in several modes to reclaim storage:\n\n- FULL rewrites the whole table to reclaim more storage.\n\n- FREEZE freezes tuples aggressively.\n\n- VERBOSE prints a progress report.\n\nOther text here.",
    };
    const intro = extractiveAnswer("Which modes does VACUUM have to reclaim storage?", [doc]);
    expect(intro).toContain(
      "reclaim storage: [1]\n\n- FULL rewrites the whole table to reclaim more storage.\n- FREEZE freezes tuples aggressively.\n- VERBOSE prints a progress report.",
    );
    const item = extractiveAnswer("What does FREEZE do, does it freeze tuples aggressively?", [{ ...doc, text: doc.text.replace(/^.*\n\n/, "") }]);
    expect(item).toContain(
      "- FULL rewrites the whole table to reclaim more storage.\n- FREEZE freezes tuples aggressively.\n- VERBOSE prints a progress report. [1]",
    );
    expect(item.match(/FREEZE freezes/g)).toHaveLength(1);
    // A list the passage cuts off inside an item is quoted item by item, not whole.
    const cut = extractiveAnswer("What does FREEZE do, does it freeze tuples aggressively?", [
      {
        ...doc,
        text: "- FULL rewrites the whole table to reclaim more storage.\n\n- FREEZE freezes tuples aggressively.\n\n- VERBOSE prints a progress report about each of the",
      },
    ]);
    expect(cut).toBe("FREEZE freezes tuples aggressively. [1]");
  });

  it("reads a list item wrapped over several lines as one item, never quoting its rest as a sentence of its own", () => {
    const doc = page(
      1,
      "Developer Interface",
      "api.html",
      "Parameters\n\n- url – URL to send.\n\n- data – the body to attach to the request. If a dictionary or\nlist of tuples `[(key, value)]` is provided, form-encoding will\ntake place.\n\n- json – json for the body to attach to the request.",
    );
    const answer = extractiveAnswer("When does form-encoding of a dictionary or list of tuples take place?", [doc]);
    expect(answer).toContain("If a dictionary or list of tuples `[(key, value)]` is provided, form-encoding will take place.");
    expect(answer).not.toMatch(/(?:^|\n)list of tuples/);
  });

  it("reads a sentence a page broke around a line of code as one sentence, the code a span of it", () => {
    const doc = page(
      1,
      "Numeric Types",
      "datatype-numeric.html",
      "Then the value is rounded to the declared scale.\nFor example, a column declared as\n\n```\nNUMERIC(3, 1)\n```\n\nwill round values to 1 decimal place and can store values between -99.9 and 99.9, inclusive.",
    );
    const answer = extractiveAnswer("How many decimal places will a NUMERIC column round values to?", [doc]);
    expect(answer).toContain(
      "For example, a column declared as `NUMERIC(3, 1)` will round values to 1 decimal place and can store values between -99.9 and 99.9, inclusive. [1]",
    );
    expect(answer).not.toMatch(/(?:^|\] )will round/);
    // Code between two sentences stays a block of its own.
    const example = extractiveAnswer("How do I declare a numeric column?", [
      { ...doc, text: "Declare a numeric column like this:\n\n```\nNUMERIC(3, 1)\n```\n\nsuch a column rounds values to 1 decimal place." },
    ]);
    expect(example).toContain("```\nNUMERIC(3, 1)\n```");
  });

  it("cites a list quoted whole only where the whole list stands, not where its first item recurs", () => {
    const section = (referenceNumber: number, verb: string): GroundingDocument => ({
      referenceNumber,
      title: "Node-API",
      section: `napi_object_${verb}`,
      url: `https://x/n-api.html#napi_object_${verb}`,
      text: `- \`[in] env\`: The environment that the Node-API call is invoked under.\n- \`[in] object\`: The object to ${verb}.\n\nThis method ${verb}s a given object.`,
    });
    const answer = extractiveAnswer("Which environment is the Node-API call invoked under?", [section(1, "freeze"), section(2, "seal")]);
    expect(answer).toContain("- `[in] object`: The object to freeze. [1]");
    expect(answer).not.toMatch(/freeze\. \[1, 2\]/);
    // Another page whose list only begins the same is not cited with it, and so is pointed to.
    const pages = extractiveAnswer("Which environment is the Node-API call invoked under?", [
      section(1, "freeze"),
      { ...section(2, "seal"), url: "https://x/b.html" },
    ]);
    expect(pages).toContain("The object to freeze. [1]");
    expect(pages).toMatch(/See also: Node-API \[2\]\.$/);
    // The same list in two sections is cited in both.
    const twice = extractiveAnswer("Which environment is the Node-API call invoked under?", [
      section(1, "freeze"),
      { ...section(2, "freeze"), url: "https://x/other.html" },
    ]);
    expect(twice).toContain("The object to freeze. [1, 2]");
  });

  it("returns nothing when there are no passages", () => {
    expect(extractiveAnswer("anything", [])).toBe("");
  });
});

describe("splitSentences", () => {
  it("splits at sentence ends, including before lower-case commands, but not after abbreviations", () => {
    expect(splitSentences("Run it, e.g. like this. npm run cli -- keys list shows keys. Done!")).toEqual([
      "Run it, e.g. like this.",
      "npm run cli -- keys list shows keys.",
      "Done!",
    ]);
  });

  it("never ends a sentence inside a code span", () => {
    expect(splitSentences("Only the rule, plus any `WITH ( ... )` options, is replaced. Use `os.path.join()`. Done.")).toEqual([
      "Only the rule, plus any `WITH ( ... )` options, is replaced.",
      "Use `os.path.join()`.",
      "Done.",
    ]);
    expect(splitSentences("A lone ` backtick opens nothing. The next sentence is its own.")).toEqual([
      "A lone ` backtick opens nothing.",
      "The next sentence is its own.",
    ]);
  });
});

describe("isProse", () => {
  it("keeps sentences and drops headings and code", async () => {
    const { isProse } = await import("./extractive-answer.ts");
    expect(isProse("Run the sync command to refresh a source.")).toBe(true);
    expect(isProse("Adding a knowledge source")).toBe(false);
    expect(isProse('client.chat.completions.create({ model: "agent" });')).toBe(false);
    expect(isProse("const x = await fetch(url);")).toBe(false);
  });
});
