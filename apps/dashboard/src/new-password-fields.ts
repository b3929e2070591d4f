import { NewPassword } from "@payrail/contracts";
import { html, type Html } from "@payrail/web";
import { z } from "zod";

/** A new password twice (the invitation's and the reset link's forms); the two must match. */
export const NewPasswordForm = z.object({ password: NewPassword, confirm: z.string().max(256) });

/** A new password and its repetition: the invitation's page and the reset page ask the same. */
export function newPasswordFields(): Html {
  return html`<label for="password">New password</label><input id="password" name="password" type="password" autocomplete="new-password" minlength="10" required>
        <label for="confirm">Repeat the password</label><input id="confirm" name="confirm" type="password" autocomplete="new-password" minlength="10" required>`;
}
