import { describe, expect, it } from "vitest";
import { csvRecords, csvStream } from "./csv-stream.ts";

describe("csvRecords (RFC 4180)", () => {
  it("ends every record with CRLF and quotes a field with a comma, a quote or a line break of either kind", () => {
    expect(csvRecords([["a", "b,c", 'say "hi"', "one\ntwo", "one\rtwo", null, "-1.00", " padded "]])).toBe(
      'a,"b,c","say ""hi""","one\ntwo","one\rtwo",,-1.00, padded \r\n',
    );
    expect(csvRecords([])).toBe("");
  });

  it("makes a cell that begins like a spreadsheet formula inert with an apostrophe, and leaves signed amounts as they are", () => {
    expect(csvRecords([["=HYPERLINK(\"http://x\")", "+1 555", "-cmd", "@SUM(A1)", "\tx", "-12.50", "12", "a=b"]])).toBe(
      `"'=HYPERLINK(""http://x"")",'+1 555,'-cmd,'@SUM(A1),'\tx,-12.50,12,a=b\r\n`,
    );
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
