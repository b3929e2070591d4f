import { describe, expect, it } from "vitest";
import { candidatePaths, findMissingReferences, isCheckedFile } from "../bin/docs/doc-references.ts";

const repository = new Set(["README.md", "docs/api-notes.md", "docs/events.md", "docs/guide/operator.md", "libs/store/README.md"]);
const exists = (path: string) => repository.has(path);

describe("the doc-references lint check", () => {
  it("fails a source comment that cites a document outside the repository, naming file, line and document", () => {
    const missing = findMissingReferences([{ path: "services/payments/src/x.ts", text: "// ok\n/** Blocked accounts (BRIEF.md §12). */" }], exists);
    expect(missing).toEqual([{ file: "services/payments/src/x.ts", line: 2, reference: "BRIEF.md" }]);
  });

  it("passes citations of the repository's own docs, from the root or beside the citing file", () => {
    const files = [
      { path: "libs/runtime/src/config.ts", text: "/** (docs/guide/operator.md, Configuration) */" },
      { path: "docs/api-notes.md", text: "every event is in [events.md](events.md); see [the guide](guide/operator.md#configuration)" },
      { path: "libs/store/src/sql.ts", text: "// libs/store/README.md, and the package's README.md" },
    ];
    expect(findMissingReferences(files, exists)).toEqual([]);
  });

  it("fails a relative link in a doc whose target is gone, and one that leaves the repository", () => {
    const files = [{ path: "docs/guide/operator.md", text: "[old](../decisions.md) and [outside](../../../ARCHITECTURE.md)" }];
    expect(findMissingReferences(files, exists).map((m) => m.reference)).toEqual(["../decisions.md", "../../../ARCHITECTURE.md"]);
  });

  it("ignores URLs and wildcards, which name no file of the repository", () => {
    const text = "https://github.com/fastify/demo/blob/main/README.md and `wc -l docs/*.md docs/**/*.md`";
    expect(findMissingReferences([{ path: "README.md", text }], exists)).toEqual([]);
  });

  it("looks beside the file and in every folder above it, never above the root", () => {
    expect(candidatePaths("libs/store/src/x.ts", "README.md")).toEqual(["libs/store/src/README.md", "libs/store/README.md", "libs/README.md", "README.md"]);
    expect(candidatePaths("docs/a.md", "../../x.md")).toEqual([]);
  });

  it("reads sources, docs and configuration, but not the lock file nor its own fixtures", () => {
    expect(["bin/x.ts", "docs/a.md", ".dependency-cruiser.cjs", "deploy/helm/payrail/values.yaml", "Dockerfile"].every(isCheckedFile)).toBe(true);
    expect(["package-lock.json", "docs/overview.png", "test/doc-references.test.ts"].some(isCheckedFile)).toBe(false);
  });
});
