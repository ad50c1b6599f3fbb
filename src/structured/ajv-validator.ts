import { Ajv2020 } from "ajv/dist/2020.js";
import type { SchemaValidator } from "../core/structured-output.ts";

/**
 * JSON Schema (draft 2020-12, which also reads most draft-07 schemas) through
 * Ajv. Compiled validators are cached by the schema's text.
 */
export function createAjvValidator(): SchemaValidator {
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
  const cache = new Map<string, ReturnType<typeof ajv.compile>>();
  const compiled = (schema: Record<string, unknown>) => {
    const key = JSON.stringify(schema);
    let fn = cache.get(key);
    if (!fn) {
      fn = ajv.compile(schema);
      if (cache.size > 500) cache.clear();
      cache.set(key, fn);
    }
    return fn;
  };
  return {
    checkSchema(schema) {
      try {
        if (!ajv.validateSchema(schema)) return ajv.errorsText(ajv.errors, { dataVar: "schema" });
        compiled(schema);
        return null;
      } catch (error) {
        return (error as Error).message;
      }
    },
    validate(schema, value) {
      const fn = compiled(schema);
      if (fn(value)) return [];
      return (fn.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? "is invalid"}`);
    },
  };
}
