import { describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { dashboardUser } from "./support/dashboard-session.ts";
import { FRAUD_TEST_ENV, fraudClient, HELD_AMOUNTS, withFraudStack } from "./support/fraud-stack.ts";

const variants = await infraVariants();

/** The POST forms a page offers, by action. */
const postForms = (body: string) => [...body.matchAll(/<form[^>]*method="post"[^>]*action="([^"]+)"/g)].map((m) => m[1]);

/**
 * The dashboard's Reviews page (docs/decisions/0010-fraud-monitoring.md) over HTTP: debits the
 * fraud rules held, listed open first; an owner or admin approves or cancels one with the page's
 * CSRF-protected forms; a viewer sees no button and a viewer's forged form is refused by
 * payments; another merchant's review is 404 on every page and form.
 */
describe.each(variants)("the dashboard's Reviews page over $name", (variant) => {
  const world = withFraudStack(variant, FRAUD_TEST_ENV);
  const api = fraudClient(world);

  /** A linked $600 checkout whose first debit was held: its ids. */
  async function held() {
    const linked = await api.linked(HELD_AMOUNTS);
    const reply = await api.charge(linked.id);
    expect(reply.json()).toMatchObject({ transaction_status: "in_review" });
    return { ...linked, uuid: reply.json().transaction_uuid as string, reviewId: reply.json().review_id as string };
  }
  const statusOf = async (h: Awaited<ReturnType<typeof held>>) => (await api.records(h.consumer)).find((r) => r["transaction_uuid"] === h.uuid)?.["transaction_status"];

  describe.skipIf(!!variant.skipReason)("pages and decisions", () => {
    it("lists open reviews first and shows one's rule, debit, masked account and expiry; the owner approves it and the debit goes out", async () => {
      const h = await held();
      const other = await held();
      const owner = (await dashboardUser(world.stack.app, world.merchant.id, "owner")).client;
      const list = await owner.get("/dashboard/reviews");
      expect(list.statusCode).toBe(200);
      expect(list.body).toContain('aria-current="page">Reviews');
      expect(list.body).toContain(h.reviewId);
      expect(list.body).toContain("new_account_amount");
      expect(list.body).toContain('<option value="open" selected>');
      const page = await owner.get(`/dashboard/reviews/${h.reviewId}`);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain("600.00 USD");
      expect(page.body).toContain(h.uuid);
      expect(page.body).toContain(h.id);
      expect(page.body).toMatch(/ending \d{4}/);
      expect(page.body).toContain("limit_cents</span>: 50000");
      expect(page.body).toContain("amount_cents</span>: 60000");
      expect(page.body).toContain("Expires");
      expect(postForms(page.body)).toEqual(["/dashboard/sign-out", `/dashboard/reviews/${h.reviewId}/approve`, `/dashboard/reviews/${h.reviewId}/cancel`]);

      const approved = await owner.post(`/dashboard/reviews/${h.reviewId}/approve`);
      expect(approved.statusCode, approved.body).toBe(303);
      expect(approved.headers.location).toBe(`/dashboard/reviews/${h.reviewId}?done=review-approved`);
      expect(world.transferCalls.get(h.uuid)).toBe(1);
      expect(await statusOf(h)).toBe("pending");
      const after = await owner.get(approved.headers.location as string);
      expect(after.body).toContain("Debit approved");
      expect(after.body).toContain("approved");
      expect(postForms(after.body)).toEqual(["/dashboard/sign-out"]);
      // Twice: 409 review_closed as a page, and nothing more is sent.
      const again = await owner.post(`/dashboard/reviews/${h.reviewId}/approve`);
      expect(again.statusCode).toBe(409);
      expect(again.headers["content-type"]).toContain("text/html");
      expect(world.transferCalls.get(h.uuid)).toBe(1);
      // The open one is still listed under open; the approved one under approved.
      expect((await owner.get("/dashboard/reviews")).body).not.toContain(h.reviewId);
      expect((await owner.get("/dashboard/reviews?status=approved")).body).toContain(h.reviewId);
      expect((await owner.get("/dashboard/reviews?status=all")).body).toContain(other.reviewId);
      expect((await owner.get("/dashboard/reviews?status=maybe")).statusCode).toBe(400);
    });

    it("lets an admin cancel a held debit: nothing is sent and the checkout fails", async () => {
      const h = await held();
      const admin = (await dashboardUser(world.stack.app, world.merchant.id, "admin")).client;
      await admin.get(`/dashboard/reviews/${h.reviewId}`);
      const cancelled = await admin.post(`/dashboard/reviews/${h.reviewId}/cancel`);
      expect(cancelled.headers.location).toBe(`/dashboard/reviews/${h.reviewId}?done=review-cancelled`);
      expect(await statusOf(h)).toBe("cancelled");
      expect(world.transferCalls.get(h.uuid)).toBeUndefined();
      await eventually(async () => expect(await api.checkout(h.id)).toMatchObject({ status: "failed" }));
    });

    it("shows a viewer no button and refuses the viewer's forged decisions with 403; the review stays open", async () => {
      const h = await held();
      const viewer = (await dashboardUser(world.stack.app, world.merchant.id, "viewer")).client;
      for (const path of ["/dashboard/reviews", `/dashboard/reviews/${h.reviewId}`]) {
        const page = await viewer.get(path);
        expect(page.statusCode, path).toBe(200);
        expect(postForms(page.body), path).toEqual(["/dashboard/sign-out"]);
      }
      for (const decision of ["approve", "cancel"]) {
        const forged = await viewer.post(`/dashboard/reviews/${h.reviewId}/${decision}`);
        expect(forged.statusCode, decision).toBe(403);
      }
      expect((await api.review(h.reviewId)).status).toBe("open");
      expect(await statusOf(h)).toBe("in_review");
    });

    it("refuses a decision without the form's CSRF token, and another merchant's review on every page and form", async () => {
      const h = await held();
      const owner = (await dashboardUser(world.stack.app, world.merchant.id, "owner")).client;
      await owner.get(`/dashboard/reviews/${h.reviewId}`);
      expect((await owner.post(`/dashboard/reviews/${h.reviewId}/approve`, {}, null)).statusCode).toBe(403);
      expect((await owner.post(`/dashboard/reviews/${h.reviewId}/approve`, {}, "forged")).statusCode).toBe(403);
      const stranger = await world.stack.merchant("Other Shop");
      const foreign = (await dashboardUser(world.stack.app, stranger.id, "owner")).client;
      const page = await foreign.get(`/dashboard/reviews/${h.reviewId}`);
      expect(page.statusCode).toBe(404);
      expect(page.body).not.toContain(h.uuid);
      expect((await foreign.get("/dashboard/reviews?status=all")).body).not.toContain(h.reviewId);
      expect((await foreign.post(`/dashboard/reviews/${h.reviewId}/approve`)).statusCode).toBe(404);
      expect((await foreign.post(`/dashboard/reviews/${h.reviewId}/cancel`)).statusCode).toBe(404);
      expect((await owner.get("/dashboard/reviews/rev_0123456789abcdef0123456789abcdef")).statusCode).toBe(404);
      expect((await api.review(h.reviewId)).status).toBe("open");
      expect(world.transferCalls.get(h.uuid)).toBeUndefined();
    });
  });
});
