import type { BankAccountValidationState } from "@payrail/contracts";
import { describe, expect, it } from "vitest";
import { pendingChange } from "./micro-deposits.view.ts";

const UUID = "sc-0123456789abcdef0123456789abcdef";
const now = new Date("2026-11-28T12:00:00.000Z");
const sent = (over: Partial<NonNullable<BankAccountValidationState["micro_deposits"]>> = {}): BankAccountValidationState => ({
  object: "bank_account_validation",
  checkout_id: "chk_0123456789abcdef0123456789abcdef",
  status: "micro_deposits_sent",
  pending_change: true,
  validation: null,
  micro_deposits: { sent_at: "2026-11-27T12:00:00.000Z", expires_at: "2026-12-07T12:00:00.000Z", tries_left: 3, ...over },
});
const render = (state: BankAccountValidationState, error?: string) => String(pendingChange("csrf-token", UUID, state, now, false, error));
const action = (path: string) => `action="/account/subscriptions/${UUID}/bank-account${path}"`;

describe("the pending change of account's page", () => {
  it("asks for the two amounts while the pair is open, with the tries left and the last day", () => {
    const page = render(sent({ tries_left: 1 }));
    expect(page).toContain(action("/verify"));
    expect(page).toContain('name="amount_1"');
    expect(page).toContain('name="amount_2"');
    expect(page).toContain("You have 1 try left.");
    expect(page).toContain("by Dec 7, 2026");
    expect(page).toContain("described ACCTVERIFY");
    expect(page).toContain(`href="/account/subscriptions/${UUID}/bank-account">Choose another account`);
  });

  it("marks both fields and says the error on the form", () => {
    const page = render(sent(), "Those are not the two amounts we sent.");
    expect(page.match(/aria-invalid="true"/g)).toHaveLength(2);
    expect(page).toContain('<p class="error" id="amounts-error" role="alert">Those are not the two amounts we sent.</p>');
  });

  it("offers a new pair once the amounts expired, by a form (a page load never sends money)", () => {
    const page = render(sent({ expires_at: "2026-11-28T11:59:59.000Z" }));
    expect(page).toContain("have expired");
    expect(page).toContain(action("/deposits"));
    expect(page).toContain("Send two new deposits");
    expect(page).not.toContain('name="amount_1"');
  });

  it("sends the consumer to another account once locked", () => {
    const page = render({ ...sent({ tries_left: 0 }), status: "locked" });
    expect(page).toContain("Three wrong pairs of amounts were entered");
    expect(page).toContain(`href="/account/subscriptions/${UUID}/bank-account">Choose another account`);
    expect(page).not.toContain(action("/verify"));
    expect(page).not.toContain(action("/deposits"));
  });

  it("offers to send the deposits when none went out, and to finish a change validated already", () => {
    expect(render({ ...sent(), status: "validation_required", micro_deposits: null })).toContain("Send the deposits");
    const validated = render({ ...sent(), status: "validated", validation: { method: "micro_deposits", validated_at: "2026-11-28T11:00:00.000Z" } });
    expect(validated).toContain("Finish the change");
    expect(validated).toContain(action("/deposits"));
  });
});
