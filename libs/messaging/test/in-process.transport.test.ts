import { silentLogger } from "@payrail/runtime";
import { createInProcessBus, createInProcessTransport, type Transport } from "../src/index.ts";
import { describeRpcContract } from "./support/rpc-contract.suite.ts";

describeRpcContract("the in-process bus", async () => {
  const bus = createInProcessBus();
  const transports: Transport[] = [];
  return {
    async transport(options = {}) {
      const transport = createInProcessTransport({ bus, logger: options.logger ?? silentLogger(), defaultTimeoutMs: 2_000, closeGraceMs: 1_000 });
      transports.push(transport);
      return transport;
    },
    async dispose() {
      await Promise.all(transports.map((t) => t.close()));
    },
  };
});
