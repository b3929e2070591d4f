import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";

const run = promisify(execFile);

/** True when `rabbitmqctl` can reach the local node (to create users and a vhost). */
export { rabbitmqctlWorks } from "../../libs/messaging/test/support/amqp-admin.ts";

interface Definitions {
  users: { name: string; password: string }[];
  permissions: { user: string; vhost: string; configure: string; write: string; read: string }[];
}

/** deploy/rabbitmq/definitions.json: the users and permissions compose gives the broker. */
export function readDefinitions(): Definitions {
  return JSON.parse(readFileSync(new URL("../../deploy/rabbitmq/definitions.json", import.meta.url), "utf8")) as Definitions;
}

export interface TestVhost {
  name: string;
  /** An amqp:// URL into the vhost as `user`, with the definitions' password. */
  url(user: string): string;
  /** Deletes the vhost (its queues and exchanges with it). */
  remove(): Promise<void>;
}

/**
 * A vhost of its own with the definitions' users (their passwords) and, on it, exactly the
 * permissions the definitions give them on "/": what compose runs, apart from other suites.
 * Users are broker-wide; they are created or given the file's password again.
 */
export async function vhostWithDefinitions(brokerUrl: string, users: string[]): Promise<TestVhost> {
  const definitions = readDefinitions();
  const name = `payrail-trust-${randomUUID().slice(0, 8)}`;
  await ctl("add_vhost", name);
  // One user's calls in turn, the users side by side: each rabbitmqctl call starts a VM of its own (seconds).
  await Promise.all(
    users.map(async (user) => {
      const entry = definitions.users.find((u) => u.name === user);
      const permission = definitions.permissions.find((p) => p.user === user && p.vhost === "/");
      if (!entry || !permission) throw new Error(`definitions.json has no user ${user} with permissions on "/"`);
      await ctl("add_user", user, entry.password).catch(() => ctl("change_password", user, entry.password));
      await ctl("set_permissions", "-p", name, user, permission.configure, permission.write, permission.read);
    }),
  );
  const base = new URL(brokerUrl);
  return {
    name,
    url(user) {
      const entry = definitions.users.find((u) => u.name === user);
      const url = new URL(base);
      url.username = encodeURIComponent(user);
      url.password = encodeURIComponent(entry?.password ?? "");
      url.pathname = `/${encodeURIComponent(name)}`;
      return url.toString();
    },
    remove: () => ctl("delete_vhost", name).then(() => undefined),
  };
}

function ctl(...args: string[]): Promise<unknown> {
  return run("rabbitmqctl", ["-q", ...args]);
}
