import { describe, expect, it } from "vitest";
import { settleAll } from "../src/shared/settle-all.ts";

describe("settleAll", () => {
  it("answers every value in order when all resolve", async () => {
    expect(await settleAll([Promise.resolve(1), new Promise((resolve) => setTimeout(() => resolve(2), 10)), Promise.resolve(3)])).toEqual([1, 2, 3]);
  });

  it("rejects with the first failure only once the slower promises have ended", async () => {
    const ended: string[] = [];
    const slow = new Promise<string>((resolve) => setTimeout(() => resolve("slow"), 50)).then((v) => (ended.push(v), v));
    const failed = Promise.reject(new Error("first")).finally(() => ended.push("first failed"));
    const later = new Promise<string>((_, reject) => setTimeout(() => reject(new Error("second")), 20));
    await expect(settleAll([failed, slow, later])).rejects.toThrow("first");
    // Promise.all would have rejected at once, with the slow write still running.
    expect(ended).toEqual(["first failed", "slow"]);
  });
});
