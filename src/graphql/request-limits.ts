import { maxAliasesRule } from "@escape.tech/graphql-armor-max-aliases";
import { GraphQLError, parse, type ValidationContext, type ValidationRule } from "graphql";
import { documentShapeProblem, shapeError } from "./document-shape.ts";

/** Chat completions one GraphQL request may ask for: with aliases, one request of 200 took 1.8 s of work. */
export const MAX_COMPLETIONS_PER_REQUEST = 1;
/** Tokens of a GraphQL document: docent's largest real query has about 100; 4 MB of fields took 2.2 s to parse and validate. */
export const MAX_QUERY_TOKENS = 5000;
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
