import { silentLogger } from "@payrail/runtime";
import { createInProcessBus, createInProcessTransport, type Transport } from "../src/index.ts";
import { describeEventsContract } from "./support/events-contract.suite.ts";

describeEventsContract("the in-process bus", async () => {
  const bus = createInProcessBus();
  const transports: Transport[] = [];
  return {
    async transport() {
      const transport = createInProcessTransport({ bus, logger: silentLogger(), closeGraceMs: 1_000 });
      transports.push(transport);
      return transport;
    },
    deadLetters: async (service) => [...bus.deadLetters(service)],
    async dispose() {
      await Promise.all(transports.map((t) => t.close()));
    },
  };
});
