import { afterEach, beforeEach } from "vitest";

/**
 * Gives every test of the enclosing describe() a world of its own (a broker prefix or a bus),
 * disposed after it, so nothing leaks between tests. Returns the running test's world.
 */
export function freshWorldPerTest<W extends { dispose(): Promise<void> }>(createWorld: () => Promise<W>): () => W {
  let world: W | undefined;
  beforeEach(async () => {
    world = await createWorld();
  });
  afterEach(async () => {
    await world?.dispose();
    world = undefined;
  });
  return () => {
    if (!world) throw new Error("a world exists only while a test runs");
    return world;
  };
}
