import type { StructuredFormat } from "../../core/structured-output.ts";

/** OpenAI's native structured outputs: `json_schema` (optionally strict) or JSON mode. */
export function toOpenAIResponseFormat(format: StructuredFormat) {
  if (format.kind === "json_object") return { type: "json_object" as const };
  return {
    type: "json_schema" as const,
    json_schema: {
      name: format.name,
      schema: format.schema,
      strict: format.strict,
      ...(format.description !== undefined && { description: format.description }),
    },
  };
}
