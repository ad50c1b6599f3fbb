import { GraphQLError, parse, type ValidationRule } from "graphql";

/** Chat completions one GraphQL request may ask for: with aliases, one request of 200 took 1.8 s of work. */
export const MAX_COMPLETIONS_PER_REQUEST = 1;
/** Tokens of a GraphQL document: docent's largest real query has about 100; 4 MB of fields took 2.2 s to parse and validate. */
export const MAX_QUERY_TOKENS = 5000;
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

type ParseFn = typeof parse;

/** A Yoga plugin: documents parsed with at most MAX_QUERY_TOKENS tokens, and the completion limit. */
export const requestLimits = () => ({
  onParse: ({ setParseFn }: { setParseFn: (fn: ParseFn) => void }) =>
    setParseFn((source, options) => parse(source, { ...options, maxTokens: MAX_QUERY_TOKENS })),
  onValidate: ({ addValidationRule }: { addValidationRule: (rule: ValidationRule) => void }) => addValidationRule(completionLimit),
});
