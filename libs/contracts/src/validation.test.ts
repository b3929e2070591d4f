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

describe("the API's words, not the schema library's", () => {
  it("describes each kind of bad value in a phrase of its own", async () => {
    const { z } = await import("zod");
    const schema = z.object({
      limit: z.coerce.number().int().min(1).max(100),
      name: z.string().min(1).max(5),
      items: z.array(z.string()).min(2),
      url: z.string().url(),
      status: z.enum(["enabled", "disabled"]),
      flag: z.boolean(),
      id: z.string().regex(/^mer_/, "must be a merchant id"),
    });
    const said = (input: Record<string, unknown>) => errorOf(() => parseOrThrow(schema.partial(), input)).message;
    expect(said({ limit: "abc" })).toBe("limit must be a number");
    expect(said({ limit: 1.5 })).toBe("limit must be a whole number");
    expect(said({ limit: 0 })).toBe("limit must be at least 1");
    expect(said({ limit: 101 })).toBe("limit must be at most 100");
    expect(said({ name: "" })).toBe("name must not be empty");
    expect(said({ name: "toolong" })).toBe("name must be at most 5 characters long");
    expect(said({ name: 7 })).toBe("name must be a string");
    expect(said({ items: ["a"] })).toBe("items must have at least 2 items");
    expect(said({ url: "nope" })).toBe("url must be an absolute URL");
    expect(said({ status: "on" })).toBe('status must be one of "enabled", "disabled"');
    expect(said({ flag: "yes" })).toBe("flag must be true or false");
    expect(said({ id: "x" })).toBe("id must be a merchant id");
  });

  it("never passes on zod's own phrasing for any field of Create Checkout", () => {
    for (const bad of [{ amounts: { total: [] } }, { amounts: { total: "1", currency: 3 } }, { billing: 1 }, { items: "x" }, { is_subscription: "maybe" }, { redirect_confirm_url: 5 }, {}]) {
      const err = errorOf(() => parseOrThrow(CreateCheckoutBody, bad));
      expect(err.message, JSON.stringify(bad)).not.toMatch(/expected|received|Invalid|Too (small|big)/);
    }
  });
});
