/**
 * Mailpit, the local SMTP server with an HTTP API that scripts/infra-up.sh starts (SMTP_URL,
 * MAILPIT_URL): where a suite's email goes, read back through the API. Unreachable, the suites
 * skip their Mailpit part with the reason, except under REQUIRE_INFRA=1, where it is an error.
 */
export interface Mailpit {
  smtpUrl?: string;
  apiUrl?: string;
  skipReason?: string;
}

export interface MailpitMessage {
  ID: string;
  Subject: string;
  To: { Address: string }[];
}

export async function mailpitTestUrls(): Promise<Mailpit> {
  const smtpUrl = process.env.SMTP_URL;
  const apiUrl = process.env.MAILPIT_URL;
  let reason: string | undefined;
  if (!smtpUrl || !apiUrl) reason = "SMTP_URL and MAILPIT_URL are not set (eval \"$(bash scripts/infra-up.sh)\" starts Mailpit and prints them)";
  else if (!(await fetch(`${apiUrl}/livez`).then((r) => r.ok, () => false))) reason = `Mailpit does not answer at ${apiUrl}`;
  if (reason && process.env.REQUIRE_INFRA === "1") throw new Error(`REQUIRE_INFRA=1 but ${reason}`);
  return reason ? { skipReason: reason } : { smtpUrl: smtpUrl!, apiUrl: apiUrl! };
}

/** The messages to `address`, newest first. */
export async function messagesTo(apiUrl: string, address: string): Promise<MailpitMessage[]> {
  const reply = await fetch(`${apiUrl}/api/v1/search?query=${encodeURIComponent(`to:"${address}"`)}`);
  if (!reply.ok) throw new Error(`Mailpit search: ${reply.status}`);
  return ((await reply.json()) as { messages: MailpitMessage[] }).messages;
}

/** One message's plain text and HTML. */
export async function messageBody(apiUrl: string, id: string): Promise<{ Text: string; HTML: string }> {
  const reply = await fetch(`${apiUrl}/api/v1/message/${id}`);
  if (!reply.ok) throw new Error(`Mailpit message: ${reply.status}`);
  return (await reply.json()) as { Text: string; HTML: string };
}
