import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evidenceFiles, exportCompliance } from "../../bin/compliance.command.ts";
import { linkedCheckout } from "../../services/gateway/test/support/payment-flow.ts";
import { embeddedVariant } from "../support/infra.ts";
import { startStack, type Stack } from "../support/stack.ts";

describe("payrail compliance export", () => {
  const variant = embeddedVariant();
  let stack: Stack;
  let api: string;
  let merchant: { id: string; apiKey: string };
  let out: string;

  beforeAll(async () => {
    // Every first debit above $1 from a just-linked account is held: the export has a review.
    stack = await startStack(variant, { env: { FRAUD_NEW_ACCOUNT_LIMIT: "1.00" } });
    await stack.app.listen({ port: 0, host: "127.0.0.1" });
    api = `http://127.0.0.1:${(stack.app.server.address() as AddressInfo).port}`;
    merchant = await stack.merchant("Audited Shop");
    out = await mkdtemp(join(tmpdir(), "payrail-compliance-"));
  });
  afterAll(async () => {
    await rm(out, { recursive: true, force: true });
    await stack?.close();
    await variant.cleanup();
  });

  it("writes the evidence as JSON and CSV files: rules with versions and thresholds, reviews, monthly return rates, annual reviews", async () => {
    const linked = await linkedCheckout(stack, merchant.apiKey);
    const held = await stack.app.inject({ method: "POST", url: "/api/merchants/payment_preprocess/get_processor_token", payload: { checkout_id: linked.id }, headers: { "api-key": merchant.apiKey } });
    const reviewId = held.json().review_id as string;
    expect(reviewId).toMatch(/^rev_/);
    await stack.app.inject({ method: "POST", url: "/api/merchants/compliance/annual_reviews", payload: { notes: "Reviewed, kept" }, headers: { "api-key": merchant.apiKey } });

    const written = await exportCompliance({ api, apiKey: merchant.apiKey, out });
    expect((await readdir(out)).sort()).toEqual(["annual-reviews.csv", "fraud-monitoring.json", "return-rates.csv", "reviews.csv", "rules.csv"]);
    expect(written).toHaveLength(5);
    const json = JSON.parse(await readFile(join(out, "fraud-monitoring.json"), "utf8"));
    expect(json).toMatchObject({ object: "fraud_monitoring", reviews: [expect.objectContaining({ id: reviewId, status: "open" })] });
    const reviews = (await readFile(join(out, "reviews.csv"), "utf8")).trim().split("\r\n");
    expect(reviews[0]).toBe("id,checkout_id,transaction_uuid,kind,amount,currency,status,rules,opened_at,expires_at,closed_at,closed_by");
    expect(reviews[1]).toContain(`${reviewId},${linked.id},`);
    expect(reviews[1]).toContain(",107.5,USD,open,new_account_amount v1,");
    const rules = await readFile(join(out, "rules.csv"), "utf8");
    expect(rules).toMatch(/,new_account_amount,1,\d{4}-\d{2}-\d{2},[^\r\n]*,FRAUD_NEW_ACCOUNT_LIMIT,100\r\n/);
    expect((await readFile(join(out, "return-rates.csv"), "utf8")).trim().split("\r\n")).toHaveLength(13);
    expect(await readFile(join(out, "annual-reviews.csv"), "utf8")).toMatch(/,api_key:[^,]+,"Reviewed, kept"\r\n$/);
  });

  it("fails with the API's answer when the key is refused, writing nothing", async () => {
    const empty = await mkdtemp(join(tmpdir(), "payrail-compliance-refused-"));
    await expect(exportCompliance({ api, apiKey: "sk_test_nope", out: empty })).rejects.toThrow(/answered 401/);
    expect(await readdir(empty)).toEqual([]);
    await rm(empty, { recursive: true, force: true });
  });

  it("quotes CSV fields with commas, quotes and line breaks, and defuses spreadsheet formulas", () => {
    const files = evidenceFiles({
      object: "fraud_monitoring",
      generated_at: "2026-11-28T00:00:00.000Z",
      rules_in_force: { id: "frs_x", since: "2026-11-28T00:00:00.000Z", until: null, review_expires_hours: 72, rules: [] },
      rule_sets: [],
      reviews: [],
      reviews_truncated: false,
      return_rates: [],
      annual_reviews: [{ id: "arv_1", notes: '=HYPERLINK("x"), then\nmore', reviewed_at: "2026-11-28T00:00:00.000Z", reviewed_by: { type: "user", id: "usr_1" } }],
    });
    expect(files["annual-reviews.csv"]).toBe('id,reviewed_at,reviewed_by,notes\r\narv_1,2026-11-28T00:00:00.000Z,user:usr_1,"\'=HYPERLINK(""x""), then\nmore"\r\n');
  });
});
