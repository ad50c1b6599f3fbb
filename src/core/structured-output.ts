import type { ResponseFormat } from "./chat-request.ts";

/** What the model must output, as the model port receives it. */
export interface StructuredFormat {
  /** `json_schema` constrains to `schema`; `json_object` to any JSON object. */
  kind: "json_schema" | "json_object";
  name: string;
  description?: string;
  schema: Record<string, unknown>;
  strict: boolean;
}

/**
 * The port for JSON Schema: checking a schema up front and validating output.
 * Asynchronous: a caller's schema is compiled to code, which an adapter may
 * do off the server's thread (see structured/threaded-validator.ts).
 */
export interface SchemaValidator {
  /** Null when `schema` is valid JSON Schema, else why not. */
  checkSchema(schema: Record<string, unknown>, options?: SchemaWork): Promise<string | null>;
  /** Problems of `value` against `schema`, empty when it conforms. */
  validate(schema: Record<string, unknown>, value: unknown, options?: SchemaWork): Promise<string[]>;
}

/** Whose request the work is for (work shared between callers is taken in turn), and its signal (work not begun is dropped). */
export interface SchemaWork {
  caller?: string | null;
  signal?: AbortSignal;
}

export function structuredFormat(format: ResponseFormat | null | undefined): StructuredFormat | null {
  if (!format || format.type === "text") return null;
  if (format.type === "json_object") return { kind: "json_object", name: "json_object", schema: { type: "object" }, strict: false };
  const { name, description, schema, strict } = format.json_schema;
  return { kind: "json_schema", name, description, schema: schema ?? { type: "object" }, strict: strict ?? false };
}

/** Parses and validates a reply; the list of problems is empty when it is good. */
export async function checkStructuredReply(text: string, format: StructuredFormat, validator: SchemaValidator, work?: SchemaWork): Promise<string[]> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return [`the reply is not valid JSON (${(error as Error).message})`];
  }
  if (format.kind === "json_object" && (value === null || typeof value !== "object" || Array.isArray(value))) return ["the reply must be a JSON object"];
  return validator.validate(format.schema, value, work);
}
