import { describe, expect, it } from "vitest";
import { isSoftwareTerm } from "./software-terms.ts";

describe("isSoftwareTerm", () => {
  it("knows developers' jargon that general word lists lack", () => {
    for (const word of ["monorepo", "webhook", "codebase", "backport", "worktree"]) expect(isSoftwareTerm(word), word).toBe(true);
  });

  it("keeps only entries written in lower case, and knows no everyday or made-up word", () => {
    // The dictionary writes WordPress and Postgres capitalised: products, not jargon (lower-casing its entries would let them in).
    for (const word of ["wordpress", "postgres", "weekend", "inago", ""]) expect(isSoftwareTerm(word), word).toBe(false);
  });

  it("leaves out the products its makers write in lower case: those the product dictionaries list, and those read by hand", () => {
    // npm packages, a software tool, a company; then products no product dictionary lists.
    for (const word of ["webpack", "lodash", "memcached", "buildkite", "softlayer"]) expect(isSoftwareTerm(word), word).toBe(false);
    for (const word of ["logstash", "graylog", "gitlens", "checkstyle", "javadoc", "minitest", "hyperdisk", "webdriver"])
      expect(isSoftwareTerm(word), word).toBe(false);
  });
});
