#!/usr/bin/env -S npx tsx
/**
 * The one launcher. `start` runs the services named in SERVICES in this process;
 * `merchant ...` administers merchants and keys (see `payrail help`).
 */
import { runListenCommand } from "./listen.command.ts";
import { runMerchantCommand } from "./merchant.command.ts";
import { runStart } from "./start.command.ts";

const USAGE = `usage:
  payrail start                                   run the services named in SERVICES (default: all)
  payrail merchant create --name <name> [--destination <funding source URL>]
  payrail merchant key --id <merchant id>         issue another API key
  payrail merchant revoke --id <merchant id> --prefix <key prefix>
  payrail listen --forward-to <url> [--api-key <key>] [--api <url>] [--events <type|group.*>] [--secret <whsec_…>]
                                                  forward the merchant's new events to a local URL, signed`;

const [command, ...rest] = process.argv.slice(2);
try {
  if (command === "start") await runStart();
  else if (command === "merchant") await runMerchantCommand(rest);
  else if (command === "listen") await runListenCommand(rest);
  else {
    console.log(USAGE);
    process.exitCode = command === undefined || command === "help" || command === "--help" ? 0 : 2;
  }
} catch (err) {
  console.error(`payrail: ${(err as Error).message}`);
  process.exit(1);
}
