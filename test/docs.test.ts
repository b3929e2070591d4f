import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Every Markdown file under docs/, at any depth. */
function markdownUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownUnder(path);
    return entry.name.endsWith(".md") ? [path] : [];
  });
}

/** Lines as `wc -l` counts them. */
function lineCount(path: string): number {
  return (readFileSync(path, "utf8").match(/\n/g) ?? []).length;
}

/** Targets of inline links and images (`[text](target)`) and of reference definitions (`[id]: target`). */
function linkTargets(text: string): string[] {
  const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
  const definitions = [...text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$/gm)].map((m) => m[1]!);
  return [...inline, ...definitions];
}

/** The relative links of a Markdown file whose target (without its #fragment) is not in the repository. */
function brokenLinks(path: string): string[] {
  return linkTargets(readFileSync(path, "utf8"))
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith("#"))
    .filter((target) => !existsSync(resolve(dirname(path), decodeURIComponent(target.split("#")[0]!))));
}

const docs = markdownUnder(join(root, "docs"));
const readme = join(root, "README.md");

describe("the docs a newcomer reads", () => {
  it("keeps the README under 300 lines", () => {
    expect(lineCount(readme)).toBeLessThan(300);
  });

  it("keeps every docs page under 600 lines", () => {
    const long = docs.filter((path) => lineCount(path) >= 600).map((path) => `${relative(root, path)}: ${lineCount(path)} lines`);
    expect(long).toEqual([]);
  });

  it("finds every relative link of the README and the docs in the repository", () => {
    const broken = [readme, ...docs].flatMap((path) => brokenLinks(path).map((target) => `${relative(root, path)} → ${target}`));
    expect(broken).toEqual([]);
  });

  it("reads the links it checks: inline, images, reference definitions, not URLs", () => {
    const text = "[a](guide/x.md#y) ![b](pic.png)\n[c]: ../z.md\n[d](https://example.com/x.md) [e](#here)";
    expect(linkTargets(text)).toEqual(["guide/x.md#y", "pic.png", "https://example.com/x.md", "#here", "../z.md"]);
  });

  it("reports a relative link whose file is gone, and passes one whose file is there", () => {
    const dir = mkdtempSync(join(tmpdir(), "payrail-docs-"));
    writeFileSync(join(dir, "there.md"), "# there\n");
    const page = join(dir, "page.md");
    writeFileSync(page, "[ok](there.md#top) [gone](guide/gone.md) [web](https://example.com/gone.md)\n");
    try {
      expect(brokenLinks(page)).toEqual(["guide/gone.md"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
