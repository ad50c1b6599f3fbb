import { maxAliasesRule } from "@escape.tech/graphql-armor-max-aliases";
import { GraphQLError, Lexer, parse, Source, TokenKind, type ValidationContext, type ValidationRule } from "graphql";
import { documentShapeProblem, shapeError } from "./document-shape.ts";

/** Chat completions one GraphQL request may ask for: with aliases, one request of 200 took 1.8 s of work. */
export const MAX_COMPLETIONS_PER_REQUEST = 1;
/** Tokens of a GraphQL document: docent's largest real query has about 100; 4 MB of fields took 2.2 s to parse and validate. */
export const MAX_QUERY_TOKENS = 5000;
/**
 * Brackets open at once in a document (selections, lists, objects, arguments):
 * graphql-js parses recursively, and 2,000 nested list values within the
 * token limit overflowed its stack (a 500, before the key was even checked).
 * The introspection query nests about 20 deep.
 */
export const MAX_NESTING = 64;

const OPENING = new Set<string>([TokenKind.BRACE_L, TokenKind.BRACKET_L, TokenKind.PAREN_L]);
const CLOSING = new Set<string>([TokenKind.BRACE_R, TokenKind.BRACKET_R, TokenKind.PAREN_R]);

/** Whether a document nests deeper than MAX_NESTING, read token by token up to MAX_QUERY_TOKENS (lexing is not recursive). */
export function nestsTooDeep(source: string): boolean {
  const lexer = new Lexer(new Source(source));
  let depth = 0;
  try {
    for (let read = 0, token = lexer.advance(); token.kind !== TokenKind.EOF && read < MAX_QUERY_TOKENS; token = lexer.advance(), read++) {
      if (OPENING.has(token.kind) && ++depth > MAX_NESTING) return true;
      if (CLOSING.has(token.kind)) depth--;
    }
  } catch {
    // A syntax error is the parser's to report.
  }
  return false;
}
/**
 * Aliases in one operation, each fragment counted wherever it is spread: 20
 * aliases of `fields` in two fragments, spread into each other, made 4.6 KB
 * of introspection answer 413 MB in 118 s. docent's own queries use none;
 * list fields (`sources`) serve what a client would alias for.
 */
export const MAX_ALIASES = 30;
const COMPLETION_FIELDS = new Set(["createChatCompletion", "chatCompletionStream"]);

/** A validation rule: a document asking for more completions than that is refused before any runs. */
export const completionLimit: ValidationRule = (context) => {
  let seen = 0;
  return {
    Field(node) {
      if (!COMPLETION_FIELDS.has(node.name.value) || ++seen <= MAX_COMPLETIONS_PER_REQUEST) return;
      context.reportError(
        new GraphQLError(`A GraphQL request may ask for at most ${MAX_COMPLETIONS_PER_REQUEST} chat completion: send one request per completion.`, {
          nodes: node,
          extensions: { code: "BAD_USER_INPUT" },
        }),
      );
    },
  };
};

/** A validation rule: more than MAX_ALIASES aliases, fragments expanded, is refused (GraphQL Armor counts them). */
export const aliasLimit: ValidationRule = (context: ValidationContext) =>
  maxAliasesRule({
    n: MAX_ALIASES,
    propagateOnRejection: false,
    onReject: [
      (_context, error) =>
        context.reportError(
          new GraphQLError(`${error.message.replace(/^Syntax Error: /, "")} Ask for a list field instead of aliasing one field many times.`, {
            extensions: { code: "BAD_USER_INPUT" },
          }),
        ),
    ],
  })(context);

type ParseFn = typeof parse;

/** A Yoga plugin: documents parsed with at most MAX_QUERY_TOKENS tokens and of a bounded shape, and the completion and alias limits. */
export const requestLimits = () => ({
  onParse: ({ setParseFn }: { setParseFn: (fn: ParseFn) => void }) =>
    setParseFn((source, options) => {
      if (nestsTooDeep(typeof source === "string" ? source : source.body)) throw shapeError(`The document nests more than ${MAX_NESTING} levels deep.`);
      const document = parse(source, { ...options, maxTokens: MAX_QUERY_TOKENS });
      // Refused before validation, whose cost these shapes multiply (document-shape.ts).
      const problem = documentShapeProblem(document);
      if (problem) throw shapeError(problem);
      return document;
    }),
  onValidate: ({ addValidationRule }: { addValidationRule: (rule: ValidationRule) => void }) => {
    addValidationRule(completionLimit);
    addValidationRule(aliasLimit);
  },
});
