import { GraphQLError } from "graphql";
import { describe, expect, it, vi } from "vitest";
import { DocentError } from "../core/errors.ts";
import { maskError } from "./errors.ts";

describe("GraphQL error mapping", () => {
  it("passes DocentErrors with their code and parameter", () => {
    const wrapped = new GraphQLError("x", { originalError: new DocentError("NOT_FOUND", "No such source.", { param: "id", reason: "source_not_found" }) });
    const masked = maskError(wrapped, "Unexpected error.") as GraphQLError;
    expect(masked.message).toBe("No such source.");
    expect(masked.extensions).toMatchObject({ code: "NOT_FOUND", param: "id", reason: "source_not_found" });
  });

  it("passes a client's mistakes (parse, validation, variables) with their message and a code, without logging them as unexpected", () => {
    const log = vi.fn();
    const parse = new GraphQLError("Syntax Error: Expected Name, found <EOF>.", { extensions: { code: "GRAPHQL_PARSE_FAILED" } });
    expect(maskError(parse, "Unexpected error.", false, log)).toBe(parse);
    const variable = new GraphQLError('Variable "$i" got invalid value { a: 1 }; ID cannot represent value: { a: 1 }', {
      originalError: new GraphQLError("ID cannot represent value"),
    });
    const masked = maskError(variable, "Unexpected error.", false, log) as GraphQLError;
    expect(masked.message).toBe(variable.message);
    expect(masked.extensions.code).toBe("BAD_USER_INPUT");
    expect(log).not.toHaveBeenCalled();
  });

  it("masks unexpected errors and logs them", () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const masked = maskError(new GraphQLError("x", { originalError: new Error("database password is hunter2") }), "Unexpected error.") as GraphQLError;
    expect(masked.message).toBe("Unexpected error.");
    expect(JSON.stringify(masked)).not.toContain("hunter2");
    expect(log).toHaveBeenCalled();
    log.mockRestore();
  });
});
