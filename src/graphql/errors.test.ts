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

  it("masks unexpected errors and logs them", () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const masked = maskError(new GraphQLError("x", { originalError: new Error("database password is hunter2") }), "Unexpected error.") as GraphQLError;
    expect(masked.message).toBe("Unexpected error.");
    expect(JSON.stringify(masked)).not.toContain("hunter2");
    expect(log).toHaveBeenCalled();
    log.mockRestore();
  });
});
