import { DashboardRole, inviteMerchantUserOp, invitationUrl, listMerchantUsersOp } from "@payrail/contracts";
import { type Command, InvalidArgumentError } from "commander";
import { merchantId, withIdentity } from "./merchant.command.ts";

const role = (value: string) => {
  const parsed = DashboardRole.safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError("owner, admin or viewer");
  return parsed.data;
};

/** `payrail users invite|list`: a merchant's dashboard users (over RabbitMQ with AMQP_URL, else on the store). */
export function defineCommand(users: Command): void {
  users
    .command("invite")
    .description("invite a dashboard user and print the invitation link (valid 7 days, shown once)")
    .requiredOption("--id <merchant id>", "mer_…", merchantId)
    .requiredOption("--email <email>", "the user's email address")
    .option("--role <role>", "owner, admin or viewer", role, "admin")
    .option("--url <base>", "the dashboard's base URL (PUBLIC_URL)", process.env.PUBLIC_URL ?? `http://127.0.0.1:${process.env.PORT ?? "8080"}`)
    .action((o: { id: string; email: string; role: DashboardRole; url: string }) =>
      withIdentity(async (call) => {
        const out = await call(inviteMerchantUserOp, { merchant_id: o.id, email: o.email, role: o.role });
        console.log(`user ${out.user.id} (${out.user.email}, ${out.user.role}) invited until ${out.expires_at}`);
        console.log(`invitation link (shown once): ${invitationUrl(o.url, out.invitation_token)}`);
      }),
    );

  users
    .command("list")
    .description("list a merchant's dashboard users, oldest first")
    .requiredOption("--id <merchant id>", "mer_…", merchantId)
    .action((o: { id: string }) =>
      withIdentity(async (call) => {
        const out = await call(listMerchantUsersOp, { merchant_id: o.id });
        for (const u of out.data) console.log(`${u.id}  ${u.role.padEnd(6)}  ${u.status.padEnd(7)}  ${u.email}`);
      }),
    );
}
