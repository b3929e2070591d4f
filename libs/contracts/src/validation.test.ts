import { describe, expect, it } from "vitest";
import { CreateCheckoutBody } from "./http/checkout.schema.ts";
import { SendCodeBody, VerifyCodeBody } from "./http/consumer.schema.ts";
import { appErrorFromIssues, parseOrThrow } from "./validation.ts";
import { AppError } from "./errors.ts";

const errorOf = (fn: () => unknown): AppError => {
  try {
    fn();
  } catch (e) {
    return e as AppError;
  }
  throw new Error("expected a throw");
};

describe("appErrorFromIssues", () => {
  it("names the first bad field with a dotted path and a specific code", () => {
    const err = errorOf(() => parseOrThrow(CreateCheckoutBody, { amounts: { total: "x" } }));
    expect(err).toBeInstanceOf(AppError);
    expect(err.param).toBe("amounts.total");
    expect(err.code).toBe("amount_invalid");
    expect(err.status).toBe(400);
  });

  it("calls a missing field parameter_missing", () => {
    const err = errorOf(() => parseOrThrow(SendCodeBody, {}));
    expect(err).toMatchObject({ code: "parameter_missing", param: "phone" });
  });

  it("folds the aliases that clients send", () => {
    expect(parseOrThrow(VerifyCodeBody, { phone_number: "+15555550100", code: "123456" })).toEqual({
      phone: "+15555550100",
      verification_code: "123456",
    });
  });

  it("prefixes params when asked", () => {
    expect(appErrorFromIssues([{ code: "custom", path: ["a"], message: "must be x", input: 1 }], "checkout").param).toBe("checkout.a");
  });
});

describe("missing versus invalid", () => {
  it("tells a missing field from one of the wrong type", async () => {
    const { z } = await import("zod");
    const schema = z.object({ a: z.number() });
    expect(appErrorFromIssues(schema.safeParse({}).error!.issues).code).toBe("parameter_missing");
    expect(appErrorFromIssues(schema.safeParse({ a: "x" }).error!.issues).code).toBe("parameter_invalid");
    expect(appErrorFromIssues(schema.safeParse({ a: "x" }, { reportInput: true }).error!.issues).code).toBe("parameter_invalid");
    expect(appErrorFromIssues(schema.safeParse({}, { reportInput: true }).error!.issues).code).toBe("parameter_missing");
  });
});
