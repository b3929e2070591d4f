import { AppError, confirmTotpEnrolmentOp, disableTotpOp, getTwoFactorStatusOp, setTeamTwoFactorOp, startTotpEnrolmentOp, TwoFactorCode } from "@payrail/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import QRCode from "qrcode";
import { z } from "zod";
import { callService, html, Html, type WebContext } from "@payrail/web";
import { requireDashboardUser } from "../dashboard-session.ts";
import { formOf } from "../form.ts";
import { csrfField, redirectDone, sendPage } from "../layout.ts";

const CodeForm = z.object({ code: TwoFactorCode });
/** The secret comes back only to draw the same QR code again after a wrong code; identity confirms against its own copy. */
const ConfirmForm = CodeForm.extend({ secret: z.string().regex(/^[A-Z2-7]{16,64}$/), otpauth_uri: z.string().startsWith("otpauth://totp/").max(512) });
const TeamForm = z.object({ required: z.enum(["on", "off"]) });

/** The QR code of the enrolment's URI, drawn server-side as SVG (no script, no image request). */
async function qrSvg(uri: string): Promise<Html> {
  // The library's own markup of a URI identity built: trusted, and the SVG carries no script.
  const svg = await QRCode.toString(uri, { type: "svg", margin: 1 });
  return new Html(svg.replace("<svg ", '<svg class="qr" role="img" aria-label="QR code of the two-factor secret" '));
}

/**
 * The signed-in user's security page (docs/decisions/0052-dashboard-two-factor-and-reset.md):
 * two-factor enrolment (QR code, confirm with a code, recovery codes shown once), turning it off
 * with a code, and the owner's "require two-factor for the team".
 */
export async function securityRoutes(app: FastifyInstance, ctx: WebContext): Promise<void> {
  const page = async (request: FastifyRequest, reply: FastifyReply, options: { error?: string; status?: number; top?: Html } = {}) => {
    const user = requireDashboardUser(request);
    const status = await callService(ctx, request, getTwoFactorStatusOp, {});
    const held = user.mustEnrol ? html`<p class="error" role="alert">Your team requires two-factor sign-in. Set it up to use the dashboard.</p>` : "";
    const twoFactor = status.enabled
      ? html`<section class="card"><h2>Two-factor sign-in</h2><p>On. ${status.recovery_codes_left} of 10 recovery codes left.</p>
          ${status.team_requires
            ? html`<p class="muted">Your team requires it, so it cannot be turned off.</p>`
            : html`<form method="post" action="/dashboard/security/two-factor/disable">${csrfField(reply)}
          <label for="disable-code">Code from your app, or a recovery code</label><input id="disable-code" name="code" type="text" autocomplete="one-time-code" autocapitalize="none" spellcheck="false" required maxlength="32">
          <p><button class="danger" type="submit">Turn off two-factor</button></p></form>`}</section>`
      : html`<section class="card"><h2>Two-factor sign-in</h2><p>Off. With it on, signing in also asks for a code from an authenticator app.</p>
          <form method="post" action="/dashboard/security/two-factor">${csrfField(reply)}<p><button type="submit">Set up two-factor</button></p></form></section>`;
    const team =
      user.role === "owner"
        ? html`<section class="card"><h2>Team rule</h2><form method="post" action="/dashboard/security/team">${csrfField(reply)}
          <label for="team-required">Two-factor for every member of the team</label>
          <select id="team-required" name="required"><option value="on"${status.team_requires ? html` selected` : ""}>Required (members without it set it up at their next sign-in)</option><option value="off"${status.team_requires ? "" : html` selected`}>Each member's choice</option></select>
          <p><button class="secondary" type="submit">Save</button></p></form></section>`
        : "";
    return sendPage(ctx, request, reply, { title: "Security", active: "/dashboard/security", status: options.status, error: options.error, body: html`${held}${options.top ?? ""}${twoFactor}${team}` });
  };

  const enrolPage = async (request: FastifyRequest, reply: FastifyReply, enrolment: { secret: string; otpauth_uri: string }, error?: string) =>
    sendPage(ctx, request, reply, {
      title: "Set up two-factor",
      active: "/dashboard/security",
      status: error ? 401 : 200,
      error,
      body: html`<section class="card narrow"><p>Scan this code with an authenticator app, or type the key in it.</p>
        ${await qrSvg(enrolment.otpauth_uri)}
        <p>Key: <code id="totp-secret">${enrolment.secret}</code></p>
        <form method="post" action="/dashboard/security/two-factor/confirm">${csrfField(reply)}
          <input type="hidden" name="secret" value="${enrolment.secret}"><input type="hidden" name="otpauth_uri" value="${enrolment.otpauth_uri}">
          <label for="confirm-code">The six-digit code the app shows</label><input id="confirm-code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required maxlength="32">
          <p><button type="submit">Turn on two-factor</button></p></form></section>`,
    });

  app.get("/dashboard/security", (request, reply) => page(request, reply));

  app.post("/dashboard/security/two-factor", async (request, reply) => {
    requireDashboardUser(request);
    return enrolPage(request, reply, await callService(ctx, request, startTotpEnrolmentOp, {}));
  });

  app.post("/dashboard/security/two-factor/confirm", async (request, reply) => {
    requireDashboardUser(request);
    const form = formOf(request, ConfirmForm);
    try {
      const { recovery_codes } = await callService(ctx, request, confirmTotpEnrolmentOp, { code: form.code });
      // The session's hold on enrolment (if any) lifts with this write: the page shows the codes once.
      if (request.dashboardUser) request.dashboardUser.mustEnrol = false;
      return page(request, reply, {
        top: html`<div class="secret" role="status"><p><strong>Two-factor is on.</strong> Keep these recovery codes somewhere safe: each signs in once without the app. They are shown only now.</p>
          <ul id="recovery-codes">${recovery_codes.map((code) => html`<li><code>${code}</code></li>`)}</ul></div>`,
      });
    } catch (err) {
      if (err instanceof AppError && err.code === "invalid_two_factor_code") return enrolPage(request, reply, form, "That code did not match. Check the app's clock and try the next code.");
      throw err;
    }
  });

  app.post("/dashboard/security/two-factor/disable", async (request, reply) => {
    requireDashboardUser(request);
    const form = formOf(request, CodeForm);
    try {
      await callService(ctx, request, disableTotpOp, { code: form.code });
    } catch (err) {
      if (err instanceof AppError && err.code === "invalid_two_factor_code") return page(request, reply, { error: "That code is wrong or was already used.", status: 401 });
      throw err;
    }
    return redirectDone(reply, "/dashboard/security", "two-factor-off");
  });

  app.post("/dashboard/security/team", async (request, reply) => {
    const user = requireDashboardUser(request);
    const form = formOf(request, TeamForm);
    await callService(ctx, request, setTeamTwoFactorOp, { merchant_id: user.merchantId, required: form.required === "on" });
    return redirectDone(reply, "/dashboard/security", "team-two-factor");
  });
}
