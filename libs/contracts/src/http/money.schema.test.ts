import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AppError } from "../errors.ts";
import { parseOrThrow } from "../validation.ts";
import { CreateCheckoutBody } from "./checkout.schema.ts";
import { AMOUNT_TEXT, centsToDecimal, DecimalAmount, toCents } from "./money.schema.ts";
import { ConsumerRefundRequestBody } from "./refunds.schema.ts";

/** Every form the rule takes, with its cents. */
const ACCEPTED: [string | number, number][] = [
  ["0", 0],
  ["0.5", 50],
  ["0.50", 50],
  ["0.05", 5],
  ["5", 500],
  ["5.1", 510],
  ["5.10", 510],
  ["107.50", 10750],
  ["99999999.99", 9_999_999_999],
  [0, 0],
  [0.29, 29],
  [5, 500],
  [107.5, 10750],
  [99999999.99, 9_999_999_999],
];

/** Every form the rule refuses: spaces, signs, leading zeros, odd spellings, too many digits, too large. */
const REFUSED: unknown[] = [
  " 5 ",
  " 5",
  "5 ",
  "\t5",
  "5\n",
  "\u00a05",
  "00005.00",
  "05",
  "00",
  "00.5",
  "-0",
  "-0.0",
  "-5",
  "+5",
  "5.",
  ".5",
  "5.123",
  "1.005",
  "1,000",
  "1_000",
  "1e3",
  "0x10",
  "Infinity",
  "NaN",
  "",
  "five",
  "\u0665",
  "100000000",
  "100000000.00",
  "9".repeat(400),
  -0,
  -1,
  -0.01,
  1.005,
  12.345,
  1e-7,
  1e21,
  100000000,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  null,
  undefined,
  true,
  {},
  [],
  ["5"],
];

describe("toCents", () => {
  it.each(ACCEPTED)("reads %j as %i cents", (value, cents) => {
    expect(toCents(value)).toBe(cents);
  });

  it.each(REFUSED.map((v) => [v]))("refuses %j", (value) => {
    expect(toCents(value)).toBeNull();
  });

  it("round-trips every cent amount through its decimal text", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9_999_999_999 }), (cents) => {
        expect(toCents(centsToDecimal(cents))).toBe(cents);
        expect(toCents(Number(centsToDecimal(cents)))).toBe(cents);
      }),
      { seed: 32 },
    );
  });

  it("reads a string exactly when it matches the rule's pattern (and is at most 99999999.99)", () => {
    fc.assert(
      fc.property(fc.oneof(fc.stringMatching(/^[-+ 0-9.]{0,12}$/), fc.stringMatching(AMOUNT_TEXT)), (text) => {
        const bounded = text.length <= 11 && Number(text) <= 99999999.99;
        expect(toCents(text) !== null).toBe(AMOUNT_TEXT.test(text) && bounded);
      }),
      { seed: 32, numRuns: 500 },
    );
  });
});

describe("DecimalAmount", () => {
  it.each(ACCEPTED)("accepts %j and keeps it as sent", (value) => {
    expect(DecimalAmount.parse(value)).toBe(value);
  });

  it.each(REFUSED.map((v) => [v]))("refuses %j", (value) => {
    expect(DecimalAmount.safeParse(value).success).toBe(false);
  });
});

/** The AppError parsing `body` with `schema` throws. */
function refusal(schema: Parameters<typeof parseOrThrow>[0], body: unknown): AppError {
  try {
    parseOrThrow(schema, body);
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error(`accepted ${JSON.stringify(body)}`);
}

describe("amounts in request bodies", () => {
  const amounts = { total: "107.50", subtotal: 100, tax: "5", shipping: 2.5, discount_total: null, currency: "USD" };

  it.each(["total", "subtotal", "tax", "shipping", "discount_total"])("answers 400 amount_invalid naming amounts.%s for each refused form", (field) => {
    for (const bad of REFUSED.filter((v) => v !== undefined && !(field === "discount_total" && v === null))) {
      const err = refusal(CreateCheckoutBody.shape.amounts, { ...amounts, [field]: bad });
      expect(err, JSON.stringify(bad)).toMatchObject({ code: "amount_invalid", status: 400, param: field });
    }
  });

  it("keeps each accepted amount of a checkout as it was sent", () => {
    for (const [value] of ACCEPTED.filter(([, cents]) => cents > 0)) {
      expect(CreateCheckoutBody.shape.amounts.parse({ ...amounts, total: value, tax: value }), String(value)).toMatchObject({ total: value, tax: value });
    }
  });

  it("answers a refused refund amount 400 amount_invalid naming amount, and keeps an accepted one as sent", () => {
    for (const bad of REFUSED.filter((v) => v !== undefined)) {
      expect(refusal(ConsumerRefundRequestBody, { transaction_uuid: "sc-1", amount: bad }), JSON.stringify(bad)).toMatchObject({ code: "amount_invalid", param: "amount" });
    }
    for (const [value] of ACCEPTED.filter(([, cents]) => cents > 0)) {
      expect(parseOrThrow(ConsumerRefundRequestBody, { transaction_uuid: "sc-1", amount: value }).amount).toBe(value);
    }
  });
});
