import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { mailpitTestUrls, messageBody, messagesTo } from "../../../test/support/mailpit.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";
import { SESSION_COOKIE } from "../../../apps/dashboard/src/dashboard-session.ts";
import { DASHBOARD_PASSWORD, DashboardClient, dashboardUser } from "./support/dashboard-session.ts";

const variants = await infraVariants();
const mailpit = await mailpitTestUrls();
const PUBLIC_URL = "https://pay.example";

/** The code an authenticator app shows now, with the same library identity checks it with. */
const codeNow = (secret: string, offsetSteps = 0) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate({ timestamp: Date.now() + offsetSteps * 30_000 });

/** Enrols the signed-in client from the security page: the secret shown and the recovery codes. */
async function enrol(client: DashboardClient): Promise<{ secret: string; recoveryCodes: string[]; page: string }> {
  await client.get("/dashboard/security");
  const started = await client.post("/dashboard/security/two-factor");
  expect(started.statusCode).toBe(200);
  expect(started.body).toContain('<svg class="qr" role="img"');
  const secret = /<code id="totp-secret">([A-Z2-7]+)<\/code>/.exec(started.body)![1]!;
  const hidden = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(started.body)![1]!.replaceAll("&amp;", "&");
  const confirmed = await client.post("/dashboard/security/two-factor/confirm", { code: codeNow(secret), secret, otpauth_uri: hidden("otpauth_uri") });
  expect(confirmed.statusCode).toBe(200);
  const recoveryCodes = [...confirmed.body.matchAll(/<li><code>([a-z0-9-]{19})<\/code><\/li>/g)].map((m) => m[1]!);
  expect(recoveryCodes).toHaveLength(10);
  return { secret, recoveryCodes, page: confirmed.body };
}

/** The dashboard's two-factor, team rule and password-reset pages over HTTP (docs/decisions/0052-dashboard-two-factor-and-reset.md). */
describe.each(variants)("dashboard two-factor and password reset pages over $name", (variant) => {
  let stack: Stack;
  let merchantId: string;

  beforeAll(async () => {
    if (variant.skipReason || mailpit.skipReason) return;
    stack = await startStack(variant, { env: { SMTP_URL: mailpit.smtpUrl!, PUBLIC_URL } });
    merchantId = (await stack.merchant("Acme")).id;
  });
  afterAll(async () => {
    await stack?.close();
    await variant.cleanup();
  });

  describe.skipIf(!!variant.skipReason || !!mailpit.skipReason)("pages", () => {
    it("enrols on the security page, then signs in with the password and a code; a wrong or replayed code is 401", async () => {
      const { client, email } = await dashboardUser(stack.app, merchantId, "admin");
      const { secret } = await enrol(client);
      expect((await client.get("/dashboard/security")).body).toContain("10 of 10 recovery codes left");

      const browser = new DashboardClient(stack.app);
      const first = await browser.signIn(email);
      expect(first.statusCode).toBe(303);
      expect(first.headers.location).toBe("/dashboard/sign-in/two-factor");
      expect(String(first.headers["set-cookie"] ?? "")).not.toContain(`${SESSION_COOKIE}=`);
      // The challenge alone opens nothing.
      expect((await browser.get("/dashboard")).headers.location).toBe("/dashboard/sign-in");
      await browser.get("/dashboard/sign-in/two-factor");
      expect((await browser.post("/dashboard/sign-in/two-factor", { code: "12345x" })).statusCode).toBe(401);
      // The step enrolment took is spent: the next step's code (one step of drift is accepted).
      const code = codeNow(secret, 1);
      const second = await browser.post("/dashboard/sign-in/two-factor", { code });
      expect(second.statusCode).toBe(303);
      expect(second.headers.location).toBe("/dashboard");
      expect((await browser.get("/dashboard")).statusCode).toBe(200);

      const replay = new DashboardClient(stack.app);
      await replay.signIn(email);
      await replay.get("/dashboard/sign-in/two-factor");
      expect((await replay.post("/dashboard/sign-in/two-factor", { code })).statusCode).toBe(401);
    });

    it("signs in with a recovery code once, and turns two-factor off with another", async () => {
      const { client, email } = await dashboardUser(stack.app, merchantId, "viewer");
      const { recoveryCodes } = await enrol(client);
      const browser = new DashboardClient(stack.app);
      await browser.signIn(email);
      await browser.get("/dashboard/sign-in/two-factor");
      expect((await browser.post("/dashboard/sign-in/two-factor", { code: recoveryCodes[0]! })).headers.location).toBe("/dashboard");
      const again = new DashboardClient(stack.app);
      await again.signIn(email);
      await again.get("/dashboard/sign-in/two-factor");
      expect((await again.post("/dashboard/sign-in/two-factor", { code: recoveryCodes[0]! })).statusCode).toBe(401);
      await browser.get("/dashboard/security");
      const off = await browser.post("/dashboard/security/two-factor/disable", { code: recoveryCodes[1]! });
      expect(off.headers.location).toBe("/dashboard/security?done=two-factor-off");
      expect((await new DashboardClient(stack.app).signIn(email)).headers.location).toBe("/dashboard");
    });

    it("holds a member without two-factor at the security page once an owner requires it for the team", async () => {
      const merchant = (await stack.merchant("Strict")).id;
      const owner = await dashboardUser(stack.app, merchant, "owner");
      const member = await dashboardUser(stack.app, merchant, "admin");
      // Only an owner sees and sets the rule.
      expect((await member.client.get("/dashboard/security")).body).not.toContain("Team rule");
      await owner.client.get("/dashboard/security");
      expect((await owner.client.post("/dashboard/security/team", { required: "on" })).headers.location).toBe("/dashboard/security?done=team-two-factor");
      expect((await member.client.post("/dashboard/security/team", { required: "off" })).statusCode).toBe(403);

      const browser = new DashboardClient(stack.app);
      expect((await browser.signIn(member.email)).headers.location).toBe("/dashboard");
      for (const path of ["/dashboard", "/dashboard/checkouts", "/dashboard/team"]) expect((await browser.get(path)).headers.location).toBe("/dashboard/security");
      const held = await browser.get("/dashboard/security");
      // A form posted elsewhere is sent to the enrolment too, unrun.
      const heldInvite = `held${Date.now()}@shop.example`;
      const invite = await browser.post("/dashboard/team", { email: heldInvite, role: "viewer" });
      expect([invite.statusCode, invite.headers.location]).toEqual([303, "/dashboard/security"]);
      await browser.get("/dashboard/security");
      expect(held.body).toContain("Your team requires two-factor sign-in");
      await enrol(browser);
      expect((await owner.client.get("/dashboard/team")).body).not.toContain(heldInvite);
      expect((await browser.get("/dashboard/checkouts")).statusCode).toBe(200);
      expect((await new DashboardClient(stack.app).signIn(member.email)).headers.location).toBe("/dashboard/sign-in/two-factor");
    });

    it("resets a password by the emailed link once, ending the user's sessions; the answer never tells whether the email exists", async () => {
      const { client, email } = await dashboardUser(stack.app, merchantId, "viewer");
      const anonymous = new DashboardClient(stack.app, "198.51.100.40");
      const signInPage = await anonymous.get("/dashboard/sign-in");
      expect(signInPage.body).toContain('<a href="/dashboard/forgot">Forgot password?</a>');
      await anonymous.get("/dashboard/forgot");
      const known = await anonymous.post("/dashboard/forgot", { email });
      const unknown = await anonymous.post("/dashboard/forgot", { email: `nobody${Date.now()}@shop.example` });
      expect([known.statusCode, known.headers.location]).toEqual([303, "/dashboard/forgot?done=reset-sent"]);
      expect([unknown.statusCode, unknown.headers.location]).toEqual([known.statusCode, known.headers.location]);

      const mail = await eventually(async () => {
        const found = await messagesTo(mailpit.apiUrl!, email);
        expect(found).toHaveLength(1);
        return found[0]!;
      });
      const text = (await messageBody(mailpit.apiUrl!, mail.ID)).Text;
      const link = /https:\/\/pay\.example(\/dashboard\/reset\?token=[A-Za-z0-9_-]+)/.exec(text)![1]!;
      const token = link.split("token=")[1]!;
      const page = await anonymous.get(link);
      expect(page.statusCode).toBe(200);
      expect(page.headers["referrer-policy"]).toBe("no-referrer");
      expect((await anonymous.post("/dashboard/reset", { token, password: "a brand new passphrase", confirm: "another passphrase" })).statusCode).toBe(400);
      const reset = await anonymous.post("/dashboard/reset", { token, password: "a brand new passphrase", confirm: "a brand new passphrase" });
      expect(reset.headers.location).toBe("/dashboard/sign-in?done=password-reset");
      // The session opened before the reset has ended; the link is spent.
      expect((await client.get("/dashboard")).headers.location).toBe("/dashboard/sign-in");
      await anonymous.get(link);
      expect((await anonymous.post("/dashboard/reset", { token, password: "yet another passphrase", confirm: "yet another passphrase" })).statusCode).toBe(401);
      expect((await new DashboardClient(stack.app).signIn(email, DASHBOARD_PASSWORD)).statusCode).toBe(401);
      expect((await new DashboardClient(stack.app).signIn(email, "a brand new passphrase")).headers.location).toBe("/dashboard");
    });

    it("escapes a hostile token on the reset page and refuses a form without its CSRF token", async () => {
      const browser = new DashboardClient(stack.app);
      const page = await browser.get(`/dashboard/reset?token=${encodeURIComponent('"><script>alert(1)</script>')}`);
      expect(page.body).not.toContain("<script>alert(1)");
      expect(page.body).toContain("&quot;&gt;&lt;script&gt;");
      expect((await browser.post("/dashboard/forgot", { email: "a@shop.example" }, null)).statusCode).toBe(403);
    });
  });
});
