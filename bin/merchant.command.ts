import { createMerchantOp, generateApiKeyOp, listApiKeysOp, listMerchantsOp, revokeApiKeyOp, updateMerchantFundingSourcesOp } from "@payrail/contracts";
import { type Command, InvalidArgumentError } from "commander";
import type { AdminCall } from "./admin-call.ts";
import { withAdminCalls } from "./admin-calls.ts";

/** commander's check of a `--id mer_…` option (the users commands use it too). */
export const merchantId = (value: string) => {
  if (!/^mer_[0-9a-f]{32}$/.test(value)) throw new InvalidArgumentError("a merchant id is mer_ and 32 lowercase hex characters");
  return value;
};
const limit = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new InvalidArgumentError("a whole number from 1 to 1000");
  return n;
};
const url = (value: string) => {
  if (!URL.canParse(value)) throw new InvalidArgumentError("an absolute URL");
  return value;
};

/**
 * `payrail merchant create|update|list|keys|key|revoke`. With AMQP_URL they ask the running identity
 * service over RabbitMQ; beside a `payrail start` that holds the embedded store, its admin
 * routes; otherwise they open the store themselves and run identity in this process.
 */
export function defineCommand(merchant: Command): void {
  merchant
    .command("create")
    .description("create a merchant and print its first API key (shown once)")
    .requiredOption("--name <name>", "the merchant's name")
    .option("--destination <url>", "the merchant's funding source at the transfer provider", url)
    .option("--payout-bank <url>", "the merchant's bank at the transfer provider, where payouts go", url)
    .action((o: { name: string; destination?: string; payoutBank?: string }) =>
      withIdentity(async (call) => {
        const out = await call(createMerchantOp, {
          name: o.name,
          ...(o.destination ? { destination_funding_source: o.destination } : {}),
          ...(o.payoutBank ? { payout_funding_source: o.payoutBank } : {}),
        });
        console.log(`merchant ${out.merchant.id} (${out.merchant.name})`);
        console.log(`api-key (shown once): ${out.api_key}`);
      }),
    );

  merchant
    .command("update")
    .description("change a merchant's funding sources at the transfer provider (the next payout uses them)")
    .requiredOption("--id <merchant id>", "mer_…", merchantId)
    .option("--destination <url>", "the merchant's funding source at the transfer provider", url)
    .option("--no-destination", "clear it")
    .option("--payout-bank <url>", "the merchant's bank at the transfer provider, where payouts go", url)
    .option("--no-payout-bank", "clear it")
    .action((o: { id: string; destination?: string | false; payoutBank?: string | false }) =>
      withIdentity(async (call) => {
        // commander gives `false` for --no-…, and leaves an option neither way undefined: that one stays.
        const out = await call(updateMerchantFundingSourcesOp, {
          merchant_id: o.id,
          ...(o.destination === undefined ? {} : { destination_funding_source: o.destination || null }),
          ...(o.payoutBank === undefined ? {} : { payout_funding_source: o.payoutBank || null }),
        });
        console.log(`merchant ${out.id} (${out.name})`);
        console.log(`destination: ${out.destination_funding_source ?? "none"}`);
        console.log(`payout bank: ${out.payout_funding_source ?? "none"}`);
      }),
    );

  merchant
    .command("list")
    .description("list merchants, newest first")
    .option("--limit <n>", "how many (1-1000)", limit, 100)
    .action((o: { limit: number }) =>
      withIdentity(async (call) => {
        const out = await call(listMerchantsOp, { limit: o.limit });
        for (const m of out.data) console.log(`${m.id}  ${m.created_at}  ${m.name}`);
        if (out.has_more) console.log(`… more than ${o.limit}; use --limit`);
      }),
    );

  merchant
    .command("keys")
    .description("list a merchant's API keys by prefix (the keys themselves are never stored)")
    .requiredOption("--id <merchant id>", "mer_…", merchantId)
    .action((o: { id: string }) =>
      withIdentity(async (call) => {
        const out = await call(listApiKeysOp, { merchant_id: o.id });
        for (const k of out.data) {
          console.log(`${k.key_prefix}  ${k.livemode ? "live" : "test"}  created ${k.created_at}  ${k.revoked_at ? `revoked ${k.revoked_at}` : "active"}`);
        }
      }),
    );

  merchant
    .command("key")
    .description("issue another API key (older keys stay valid until revoked)")
    .requiredOption("--id <merchant id>", "mer_…", merchantId)
    .action((o: { id: string }) =>
      withIdentity(async (call) => {
        const out = await call(generateApiKeyOp, { merchant_id: o.id });
        console.log(`api-key (shown once): ${out.api_key}`);
      }),
    );

  merchant
    .command("revoke")
    .description("revoke an API key by its prefix (see `merchant keys`)")
    .requiredOption("--id <merchant id>", "mer_…", merchantId)
    .requiredOption("--prefix <key prefix>", "sk_test_… or sk_live_…")
    .action((o: { id: string; prefix: string }) =>
      withIdentity(async (call) => {
        await call(revokeApiKeyOp, { merchant_id: o.id, key_prefix: o.prefix });
        console.log(`revoked ${o.prefix}`);
      }),
    );
}

/** Runs `work` against identity: the running service over RabbitMQ, a running `payrail start`'s admin routes, or one started here. */
export function withIdentity(work: (call: AdminCall) => Promise<void>): Promise<void> {
  return withAdminCalls(["identity"], work);
}
