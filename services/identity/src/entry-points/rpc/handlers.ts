import { pingOp } from "@payrail/contracts";
import { handle, type HandlerEntry } from "@payrail/messaging";
import type { IdentityDeps } from "./deps.ts";
import { createMerchantHandler } from "./create-merchant.handler.ts";
import { generateApiKeyHandler } from "./generate-api-key.handler.ts";
import { getMerchantHandler } from "./get-merchant.handler.ts";
import { updateMerchantProfileHandler } from "./update-merchant-profile.handler.ts";
import { updateMerchantFundingSourcesHandler } from "./update-merchant-funding-sources.handler.ts";
import { resolveApiKeyHandler } from "./resolve-api-key.handler.ts";
import { revokeApiKeyHandler } from "./revoke-api-key.handler.ts";
import { sendCodeHandler } from "./send-code.handler.ts";
import { verifyCodeHandler } from "./verify-code.handler.ts";
import { logoutHandler } from "./logout.handler.ts";
import { resolveAuthTokenHandler } from "./resolve-auth-token.handler.ts";
import { getVerificationCodeHandler } from "./get-verification-code.handler.ts";
import { addOperatorHandler } from "./add-operator.handler.ts";
import { isOperatorHandler } from "./is-operator.handler.ts";
import { getNoticeContactsHandler } from "./get-notice-contacts.handler.ts";
import { sendNoticeSmsHandler } from "./send-notice-sms.handler.ts";
import { listOperatorsHandler } from "./list-operators.handler.ts";
import { removeOperatorHandler } from "./remove-operator.handler.ts";
import { listMerchantsHandler } from "./list-merchants.handler.ts";
import { listApiKeysHandler } from "./list-api-keys.handler.ts";
import { inviteMerchantUserHandler } from "./invite-merchant-user.handler.ts";
import { acceptInvitationHandler } from "./accept-invitation.handler.ts";
import { signInHandler } from "./sign-in.handler.ts";
import { resolveDashboardSessionHandler } from "./resolve-dashboard-session.handler.ts";
import { signOutHandler } from "./sign-out.handler.ts";
import { listMerchantUsersHandler } from "./list-merchant-users.handler.ts";
import { changeMerchantUserRoleHandler } from "./change-merchant-user-role.handler.ts";
import { removeMerchantUserHandler } from "./remove-merchant-user.handler.ts";
import { signInSecondStepHandler } from "./sign-in-second-step.handler.ts";
import { startTotpEnrolmentHandler } from "./start-totp-enrolment.handler.ts";
import { confirmTotpEnrolmentHandler } from "./confirm-totp-enrolment.handler.ts";
import { disableTotpHandler } from "./disable-totp.handler.ts";
import { getTwoFactorStatusHandler } from "./get-two-factor-status.handler.ts";
import { setTeamTwoFactorHandler } from "./set-team-two-factor.handler.ts";
import { requestPasswordResetHandler } from "./request-password-reset.handler.ts";
import { resetPasswordHandler } from "./reset-password.handler.ts";
import { reserveRequestsHandler } from "./reserve-requests.handler.ts";

/** The identity service's operations. */
export function identityHandlers(deps: IdentityDeps): HandlerEntry[] {
  return [
    createMerchantHandler(deps),
    generateApiKeyHandler(deps),
    revokeApiKeyHandler(deps),
    resolveApiKeyHandler(deps),
    getMerchantHandler(deps),
    updateMerchantProfileHandler(deps),
    updateMerchantFundingSourcesHandler(deps),
    sendCodeHandler(deps),
    verifyCodeHandler(deps),
    logoutHandler(deps),
    resolveAuthTokenHandler(deps),
    getVerificationCodeHandler(deps),
    addOperatorHandler(deps),
    isOperatorHandler(deps),
    getNoticeContactsHandler(deps),
    sendNoticeSmsHandler(deps),
    listOperatorsHandler(deps),
    removeOperatorHandler(deps),
    listMerchantsHandler(deps),
    listApiKeysHandler(deps),
    inviteMerchantUserHandler(deps),
    acceptInvitationHandler(deps),
    signInHandler(deps),
    resolveDashboardSessionHandler(deps),
    signOutHandler(deps),
    listMerchantUsersHandler(deps),
    changeMerchantUserRoleHandler(deps),
    removeMerchantUserHandler(deps),
    signInSecondStepHandler(deps),
    startTotpEnrolmentHandler(deps),
    confirmTotpEnrolmentHandler(deps),
    disableTotpHandler(deps),
    getTwoFactorStatusHandler(deps),
    setTeamTwoFactorHandler(deps),
    requestPasswordResetHandler(deps),
    resetPasswordHandler(deps),
    reserveRequestsHandler(deps),
    handle(pingOp("identity"), async () => {
      await deps.ping();
      return { service: "identity", ok: true as const };
    }),
  ];
}
