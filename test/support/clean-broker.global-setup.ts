import { deleteLeftoverTestQueues, TEST_RUN_VARIABLE } from "@payrail/messaging/testing";

/**
 * Before the suites run: this run is named by this process's id (the workers inherit it, and
 * their queue prefixes carry it), then the queues earlier runs left on the shared broker go,
 * those of a run still going beside this one kept (see deleteLeftoverTestQueues).
 */
export default async function cleanBroker(): Promise<void> {
  process.env[TEST_RUN_VARIABLE] ??= String(process.pid);
  const url = process.env["AMQP_URL"];
  if (!url) return;
  const deleted = await deleteLeftoverTestQueues(url);
  if (deleted > 0) console.log(`deleted ${deleted} queues earlier test runs left on the broker`);
}
