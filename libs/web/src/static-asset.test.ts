import { describe, expect, it } from "vitest";
import { hashedAsset } from "./static-asset.ts";

describe("a page's hashed asset", () => {
  it("keeps its name while its content stays, and takes a new one when the content changes", () => {
    const style = hashedAsset("portal", "css", "body{margin:0}", "text/css; charset=utf-8");
    expect(style.name).toMatch(/^portal-[0-9a-f]{12}\.css$/);
    expect(hashedAsset("portal", "css", "body{margin:0}", "text/css; charset=utf-8").name).toBe(style.name);
    expect(hashedAsset("portal", "css", "body{margin:1px}", "text/css; charset=utf-8").name).not.toBe(style.name);
    expect(style).toMatchObject({ body: "body{margin:0}", contentType: "text/css; charset=utf-8" });
  });
});
