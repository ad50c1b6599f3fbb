import SchemaBuilder from "@pothos/core";
import { valueFromASTUntyped } from "graphql";
import type { GraphQLContext } from "./context.ts";

/** The one Pothos SchemaBuilder; each file in schema/ registers its types on it. */
export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  Scalars: { JSON: { Input: unknown; Output: unknown } };
  DefaultFieldNullability: false;
}>({ defaultFieldNullability: false });

builder.scalarType("JSON", {
  description: "Any JSON value.",
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast) => valueFromASTUntyped(ast),
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
