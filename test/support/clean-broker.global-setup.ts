import { deleteLeftoverTestQueues } from "@payrail/messaging/testing";

/** Before the suites run: the queues earlier runs left on the shared broker go (see deleteLeftoverTestQueues). */
export default async function cleanBroker(): Promise<void> {
  const url = process.env["AMQP_URL"];
  if (!url) return;
  const deleted = await deleteLeftoverTestQueues(url);
  if (deleted > 0) console.log(`deleted ${deleted} queues earlier test runs left on the broker`);
}
