import { describe, expect, it } from "vitest";
import { CREATE_CHECKOUT_EXAMPLE } from "./examples.ts";
import { DOCS_REQUEST_INTERCEPTOR, docsDocument } from "./docs-try-it.ts";

const ID = /"merchant_checkout_id": "(docs-try-[0-9a-f]{8})"/;
const body = (id: string) => JSON.stringify({ ...CREATE_CHECKOUT_EXAMPLE, merchant_checkout_id: id }, null, 2);
const send = (request: Record<string, unknown>) => DOCS_REQUEST_INTERCEPTOR({ ...request });

describe("/docs' Try-it for Create Checkout", () => {
  it("gives the example's id new digits on every send, and changes nothing else of the body's text", () => {
    const sent = body("docs-try-00000000");
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const out = send({ url: "http://127.0.0.1:8080/api/merchants/checkout", method: "post", body: sent });
      const id = ID.exec(String(out.body))![1]!;
      ids.add(id);
      expect(out.body).toBe(sent.replace("docs-try-00000000", id));
    }
    expect(ids.size).toBe(20);
    expect(ids.has("docs-try-00000000")).toBe(false);
  });

  it("sends a typed id, another operation and a GET as they are", () => {
    const typed = body("order-1001");
    expect(send({ url: "/api/merchants/checkout", method: "POST", body: typed }).body).toBe(typed);
    const example = body("docs-try-12345678");
    expect(send({ url: "/api/merchants/checkout/chk_1/generate_link_token", method: "POST", body: example }).body).toBe(example);
    expect(send({ url: "/api/merchants/checkout?limit=1", method: "GET" })).toEqual({ url: "/api/merchants/checkout?limit=1", method: "GET" });
  });

  it("renders the example with an id of that form and says so, and drops servers, on a copy of the document", () => {
    const document = {
      servers: [{ url: "/" }],
      paths: { "/api/merchants/checkout": { post: { description: "Creates a checkout.", requestBody: { content: { "application/json": { example: CREATE_CHECKOUT_EXAMPLE } } } } } },
    };
    const shown = docsDocument(structuredClone(document));
    expect(shown.servers).toBeUndefined();
    const post = shown.paths["/api/merchants/checkout"].post;
    expect(post.requestBody.content["application/json"].example).toEqual({ ...CREATE_CHECKOUT_EXAMPLE, merchant_checkout_id: expect.stringMatching(/^docs-try-[0-9a-f]{8}$/) });
    expect(post.description).toMatch(/^Creates a checkout\.\n\nHere, Try-it sends a `merchant_checkout_id` of the form `docs-try-…`/);
    expect(CREATE_CHECKOUT_EXAMPLE.merchant_checkout_id).toBe("order-1001");
  });
});
