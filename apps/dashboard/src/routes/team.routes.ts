import { changeMerchantUserRoleOp, DashboardRole, EmailAddress, invitationUrl, inviteMerchantUserOp, listMerchantUsersOp, removeMerchantUserOp } from "@payrail/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { callService, publicBase, html, type Html, type WebContext } from "@payrail/web";
import { canChange, requireDashboardUser } from "../dashboard-session.ts";
import { formOf } from "../form.ts";
import { dataTable } from "../data-table.ts";
import { badge, when } from "../format.ts";
import { csrfField, redirectDone, sendPage } from "../layout.ts";

const InviteForm = z.object({ email: EmailAddress, role: DashboardRole });
const RoleForm = z.object({ role: DashboardRole });

const roleOptions = (selected?: string) => DashboardRole.options.map((r) => html`<option value="${r}"${r === selected ? html` selected` : ""}>${r}</option>`);

/** The team: invite (the link shown once), change a role, remove. Identity enforces who may. */
export async function teamRoutes(app: FastifyInstance, ctx: WebContext): Promise<void> {
  const page = async (request: FastifyRequest, reply: FastifyReply, invited?: Html) => {
    const user = requireDashboardUser(request);
    const team = await callService(ctx, request, listMerchantUsersOp, { merchant_id: user.merchantId });
    const acts = canChange(user);
    return sendPage(ctx, request, reply, {
      title: "Team",
      active: "/dashboard/team",
      body: html`${invited ?? ""}
        <p class="muted">Owners and admins change things; viewers only read. Only owners grant or remove the owner role.</p>
        ${dataTable(
          "Team",
          [{ label: "Email" }, { label: "Role" }, { label: "State" }, { label: "Since" }, ...(acts ? [{ label: "Actions", actions: true }] : [])],
          team.data.map((u) => [
            html`${u.email}${u.id === user.id ? html` <span class="muted">(you)</span>` : ""}`,
            u.role,
            badge(u.status),
            when(u.created_at),
            ...(acts
              ? [
                  html`<div class="actions">
              <form class="inline" method="post" action="/dashboard/team/${u.id}/role">${csrfField(reply)}<label class="visually-hidden" for="role-${u.id}">Role of ${u.email}</label>
                <select id="role-${u.id}" name="role">${roleOptions(u.role)}</select> <button class="secondary" type="submit">Change role</button></form>
              <form class="inline" method="post" action="/dashboard/team/${u.id}/remove" data-confirm="Remove this user? Their sessions end at once.">${csrfField(reply)}<button class="danger" type="submit">Remove</button></form>
            </div>`,
                ]
              : []),
          ]),
        )}
        ${acts ? html`<section class="card"><h2>Invite someone</h2><form method="post" action="/dashboard/team">${csrfField(reply)}
          <label for="invite-email">Email</label><input id="invite-email" name="email" type="email" required>
          <label for="invite-role">Role</label><select id="invite-role" name="role">${roleOptions("viewer")}</select>
          <p><button type="submit">Create invitation link</button></p></form></section>` : ""}`,
    });
  };

  app.get("/dashboard/team", (request, reply) => page(request, reply));

  app.post("/dashboard/team", async (request, reply) => {
    const user = requireDashboardUser(request);
    const form = formOf(request, InviteForm);
    const invited = await callService(ctx, request, inviteMerchantUserOp, { merchant_id: user.merchantId, email: form.email, role: form.role });
    const link = invitationUrl(publicBase(ctx, request), invited.invitation_token);
    return page(
      request,
      reply,
      html`<div class="secret" role="status"><p><strong>Invitation for ${invited.user.email} (${invited.user.role}).</strong> Send them this link; it is shown once and works for 7 days.</p><p><code id="invitation-link">${link}</code></p></div>`,
    );
  });

  app.post<{ Params: { id: string } }>("/dashboard/team/:id/role", async (request, reply) => {
    const user = requireDashboardUser(request);
    const form = formOf(request, RoleForm);
    await callService(ctx, request, changeMerchantUserRoleOp, { merchant_id: user.merchantId, user_id: request.params.id, role: form.role });
    return redirectDone(reply, "/dashboard/team", "role");
  });

  app.post<{ Params: { id: string } }>("/dashboard/team/:id/remove", async (request, reply) => {
    const user = requireDashboardUser(request);
    await callService(ctx, request, removeMerchantUserOp, { merchant_id: user.merchantId, user_id: request.params.id });
    return redirectDone(reply, "/dashboard/team", "removed");
  });
}
