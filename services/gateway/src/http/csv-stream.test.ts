import { describe, expect, it } from "vitest";
import { csvRecords, csvStream } from "./csv-stream.ts";

describe("csvRecords (RFC 4180)", () => {
  it("ends every record with CRLF and quotes a field with a comma, a quote or a line break of either kind", () => {
    expect(csvRecords([["a", "b,c", 'say "hi"', "one\ntwo", "one\rtwo", null, "-1.00", " padded "]])).toBe(
      'a,"b,c","say ""hi""","one\ntwo","one\rtwo",,-1.00, padded \r\n',
    );
    expect(csvRecords([])).toBe("");
  });
});

describe("csvStream", () => {
  it("writes the header, then each page as it is asked for, and stops after the last", async () => {
    const pages = [["1", "2"], [], ["3"]];
    const asked: number[] = [];
    const stream = csvStream(
      ["n"],
      0,
      (i) => (pages[i] ?? []).map((n) => [n]),
      async (i) => {
        asked.push(i + 1);
        return i + 1 < pages.length ? i + 1 : null;
      },
    );
    let text = "";
    for await (const chunk of stream) text += String(chunk);
    expect(text).toBe("n\r\n1\r\n2\r\n3\r\n");
    expect(asked).toEqual([1, 2, 3]);
  });
});
