import { connect, type ChannelModel } from "amqplib";
import { afterAll, describe, expect, it } from "vitest";
import { silentLogger } from "@payrail/runtime";
import { coalesceWrites } from "../src/amqp/coalesce-writes.ts";
import { amqpTestUrl } from "../src/testing/amqp-test-url.ts";

const logger = silentLogger();
const broker = await amqpTestUrl();
afterAll(() => broker.stop());

/** A stand-in for amqplib's connection: a socket that records writes and corks, a muxer pass. */
function fakeModel(framesPerPass: number) {
  const log: string[] = [];
  const stream = {
    cork: () => log.push("cork"),
    uncork: () => log.push("uncork"),
    write: (frame: string) => log.push(`write ${frame}`),
  };
  const muxer = {
    _readIncoming() {
      for (let i = 1; i <= framesPerPass; i++) stream.write(`f${i}`);
    },
  };
  return { model: { connection: { stream, muxer } } as unknown as ChannelModel, muxer, log };
}

describe("coalesceWrites", () => {
  it("corks the socket around each muxer pass, so its frames leave in one write", () => {
    const { model, muxer, log } = fakeModel(3);
    coalesceWrites(model, logger);
    muxer._readIncoming();
    muxer._readIncoming();
    expect(log).toEqual(["cork", "write f1", "write f2", "write f3", "uncork", "cork", "write f1", "write f2", "write f3", "uncork"]);
  });

  it("uncorks even when a pass throws", () => {
    const { model, muxer, log } = fakeModel(1);
    muxer._readIncoming = () => {
      throw new Error("boom");
    };
    coalesceWrites(model, logger);
    expect(() => muxer._readIncoming()).toThrow("boom");
    expect(log).toEqual(["cork", "uncork"]);
  });

  it("changes nothing when amqplib's internals are not there", () => {
    expect(() => coalesceWrites({} as ChannelModel, logger)).not.toThrow();
  });

  it.skipIf(!broker.url)("finds the internals in the installed amqplib, on a real connection", async () => {
    const model = await connect(broker.url!);
    try {
      coalesceWrites(model, logger);
      const muxer = (model as unknown as { connection: { muxer: { _readIncoming: { name: string } } } }).connection.muxer;
      expect(muxer._readIncoming.name).toBe("corkedPass");
      // And the connection still works: a round trip through a temporary queue.
      const channel = await model.createChannel();
      const { queue } = await channel.assertQueue("", { exclusive: true });
      channel.sendToQueue(queue, Buffer.from("ping"));
      const got = await new Promise<string>((resolve) => void channel.consume(queue, (m) => resolve(m!.content.toString()), { noAck: true }));
      expect(got).toBe("ping");
    } finally {
      await model.close();
    }
  });
});
