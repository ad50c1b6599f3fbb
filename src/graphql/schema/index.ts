import { lexicographicSortSchema, printSchema } from "graphql";
import { builder } from "../builder.ts";
import "./catalog.ts";
import "./chat-completion.ts";
import "./chat-input.ts";
import "./chat-operations.ts";
import "./feedback.ts";

export const schema = builder.toSchema();

/** The SDL committed as schema.graphql: sorted, so the diff shows real changes only. */
export const printedSchema = () => `${printSchema(lexicographicSortSchema(schema))}\n`;
