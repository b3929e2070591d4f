import { amountInWords, dayInWords, toCents, type NoticeType } from "@payrail/contracts";
import { amountChanges, type NoticeFacts } from "../domain/notice-cause.ts";
import type { CheckoutRecipient, MandateCopy } from "../domain/ports/contacts.port.ts";

/** What a notice says, before layout: a subject, then paragraphs of plain text. */
export interface NoticeContent {
  subject: string;
  /** One line for an SMS (the merchant and support are added to it). */
  sms: string;
  paragraphs: string[];
  /** A link the consumer may act on (the portal), with its label. */
  action?: { label: string; url: string };
}

export interface ContentFacts {
  type: NoticeType;
  /** The merchant's name, already made safe (merchantText). */
  merchant: string;
  checkout: CheckoutRecipient;
  facts: NoticeFacts;
  mandateId: string | null;
  mandate: MandateCopy | null;
  /** Where the consumer portal is (PUBLIC_URL + /account). */
  portalUrl: string;
}

const PERIODS: Record<string, string> = { daily: "day", weekly: "week", monthly: "month", quarterly: "quarter", yearly: "year" };

const money = amountInWords;
const day = dayInWords;

/** The fixed words of each notice type; only the facts vary. */
export function noticeContent(f: ContentFacts): NoticeContent {
  const amount = money(f.facts.amountCents ?? f.checkout.amountCents, f.checkout.currency);
  const period = f.checkout.isSubscription ? (PERIODS[f.checkout.planType ?? ""] ?? "period") : null;
  switch (f.type) {
    case "authorization_copy": {
      const first = f.mandate ? day(f.mandate.firstDebitOn) : "the day you confirmed";
      const terms = period ? `${money(f.checkout.amountCents, f.checkout.currency)} every ${period}, from ${first}` : `one payment of ${money(f.checkout.amountCents, f.checkout.currency)} on ${first}`;
      const words = f.mandate?.text ?? `${f.merchant} holds your authorization to debit your bank account (ACH) for this purchase.`;
      return {
        subject: `Your payment authorization for ${f.merchant}`,
        sms: `${f.merchant}: you authorized ACH debits of ${terms}. Authorization ${f.mandateId}. Revoke at ${f.portalUrl}.`,
        paragraphs: [
          `This is your copy of the authorization you gave ${f.merchant} to debit your bank account.`,
          words,
          `Amount: ${terms}.`,
          `Authorization id: ${f.mandateId}.`,
          `To revoke it, cancel in your account at ${f.portalUrl} (sign in with your phone number), or contact ${f.merchant}. Debits already made are not affected.`,
        ],
        action: { label: "Manage your payments", url: f.portalUrl },
      };
    }
    case "payment_receipt":
      return {
        subject: `Receipt: ${amount} to ${f.merchant}`,
        sms: `${f.merchant}: your payment of ${amount} has gone through.`,
        paragraphs: [`Your payment of ${amount} to ${f.merchant} has gone through.`, f.checkout.isSubscription ? `It pays your ${f.checkout.planType ?? ""} subscription.` : "Thank you for your purchase."],
        action: { label: "See your payments", url: `${f.portalUrl}/payments` },
      };
    case "payment_failed": {
      const url = f.checkout.subscriptionUuid ? `${f.portalUrl}/subscriptions/${f.checkout.subscriptionUuid}/bank-account` : `${f.portalUrl}/payments`;
      const why = f.facts.failureReason ? ` Your bank said: ${f.facts.failureReason}.` : "";
      return {
        subject: `Your payment of ${amount} to ${f.merchant} did not go through`,
        sms: `${f.merchant}: your payment of ${amount} did not go through. Change your bank account at ${url}.`,
        paragraphs: [
          `Your payment of ${amount} to ${f.merchant} did not go through.${why}`,
          `You can link another bank account at ${url}, or contact ${f.merchant}.`,
        ],
        action: { label: "Change your bank account", url },
      };
    }
    case "refund_update": {
      const said = { approved: "was approved", rejected: "was declined", paid: "has been paid back to your bank account", failed: "could not be paid; it will be tried again" }[f.facts.refundStatus ?? "approved"];
      return {
        subject: `Your refund of ${amount} from ${f.merchant} ${said}`,
        sms: `${f.merchant}: your refund of ${amount} ${said}.`,
        paragraphs: [`Your refund of ${amount} from ${f.merchant} ${said}.`],
        action: { label: "See your refunds", url: `${f.portalUrl}/refunds` },
      };
    }
    case "subscription_cancelled":
      return {
        subject: `Your subscription with ${f.merchant} is cancelled`,
        sms: `${f.merchant}: your subscription is cancelled; nothing more will be debited.`,
        paragraphs: [`Your subscription with ${f.merchant} is cancelled. Nothing more will be debited for it.`],
        action: { label: "See your subscriptions", url: `${f.portalUrl}/subscriptions` },
      };
    case "micro_deposits": {
      const until = f.facts.expiresAt ? day(f.facts.expiresAt) : "10 days from now";
      const amounts = f.facts.microDepositAmounts?.map((a) => money(toCents(a) ?? 0, "USD"));
      const sandbox = amounts ? ` (Sandbox: the amounts are ${amounts.join(" and ")}.)` : "";
      // A subscription's change of account is confirmed in the portal, not on a payment page.
      if (f.facts.pendingChange) {
        const url = f.checkout.subscriptionUuid ? `${f.portalUrl}/subscriptions/${f.checkout.subscriptionUuid}/bank-account/verify` : `${f.portalUrl}/subscriptions`;
        return {
          subject: `Confirm your new bank account for ${f.merchant}`,
          sms: `${f.merchant}: two deposits under $1 (ACCTVERIFY) are on their way to the bank account you chose for your subscription. Enter both amounts at ${url} by ${until}.${sandbox}`,
          paragraphs: [
            `To confirm the bank account you chose for your subscription to ${f.merchant}, we sent it two deposits of less than $1 each, described ACCTVERIFY, and a withdrawal of the same total. Your subscription keeps drawing on your current account until you confirm it.`,
            `They appear within 1–2 business days. Enter the two amounts in your account by ${until}; after 3 wrong tries the account cannot be used.${sandbox}`,
          ],
          action: { label: "Confirm your new bank account", url },
        };
      }
      return {
        subject: `Confirm your bank account for ${f.merchant}`,
        sms: `${f.merchant}: two deposits under $1 (ACCTVERIFY) are on their way to your bank account. Enter both amounts on the payment page by ${until}.${sandbox}`,
        paragraphs: [
          `To confirm your bank account for your payment to ${f.merchant}, we sent it two deposits of less than $1 each, described ACCTVERIFY, and a withdrawal of the same total.`,
          `They appear within 1–2 business days. Enter the two amounts on the payment page by ${until}; after 3 wrong tries the account cannot be used.${sandbox}`,
        ],
      };
    }
    case "upcoming_charge": {
      const when = f.facts.chargeAt ? day(f.facts.chargeAt) : "soon";
      const previous = f.facts.previousAmountCents;
      const changed = amountChanges(f.facts);
      const was = changed && previous !== undefined ? ` This is a change: your previous payment was ${money(previous, f.checkout.currency)}.` : "";
      return {
        subject: changed ? `Your payment to ${f.merchant} changes to ${amount} on ${when}` : `Upcoming payment of ${amount} to ${f.merchant} on ${when}`,
        sms: `${f.merchant}: ${amount} will be debited from your bank account on ${when}.${was} Cancel at ${f.portalUrl}/subscriptions.`,
        paragraphs: [
          `On ${when}, ${amount} will be debited from your bank account for your ${period ? `${f.checkout.planType ?? ""} ` : ""}subscription with ${f.merchant}.${was}`,
          `To stop it, cancel your subscription at ${f.portalUrl}/subscriptions before that date, or contact ${f.merchant}.`,
        ],
        action: { label: "Manage your subscription", url: `${f.portalUrl}/subscriptions` },
      };
    }
  }
}
