// What a question says in its own words. Both the judge (which names a question is about) and the
// ranking (which words it keeps coming back to) read it.

/**
 * A stretch in quotes or backticks (an error message, a value), opened after a
 * space or bracket and closed before one: not an apostrophe. Bounded, so a
 * question of many quotes costs at most this many steps per quote, not one
 * scan to the end of the line each (20,000 of them took 2.8 s unbounded).
 */
const QUOTED = /(^|[\s([{=:,])(["'`])([^\n]{0,120}?)\2(?=$|[\s)\]}.,:;?!])/g;
/** What makes a token code: an underscore, backslash, bracket or `=`; or a path (`./x`, `~/x`, `a/b/c`, `lib/x.js`, `mylib/utils`). */
const CODE_TOKEN = /[_\\(=]|^[.~]*\/|\/.*\/|\/.*\.|^[\p{Ll}\d.-]+\/[\p{Ll}\d./-]+$/u;

/**
 * The question without what the caller quotes or writes as code: an error
 * message's `"orders_pkey"`, a package path in `require('mylib/utils')`, are
 * the caller's own names, not a product the question is about, and
 * `bucket=[]`, `bucket.append(item)` in a pasted `def add(item, bucket=[])`
 * are not what the question keeps coming back to. A fenced block is read the
 * same way, token by token: its plain words stay. A quoted
 * single word ("MongoDB") and a pair such as "Oracle/MySQL" are still read.
 * Tokens are split on white space and tested one by one (a pattern spanning a
 * token backtracked over a run of 50,000 letters for 3.3 s).
 */
export const ownText = (query: string) =>
  query
    .replace(QUOTED, (whole, before: string, _quote: string, inner: string) => (/[\s_/\\(=.:]/.test(inner) ? `${before} ` : whole))
    .split(/(\s+)/)
    .map((token) => (CODE_TOKEN.test(token) ? " " : token))
    .join("");
