/** What nodemailer's `createTransport` takes for an SMTP URL; the services that send mail share it. */
export interface SmtpTransportOptions {
  host: string;
  port: number;
  secure: boolean;
  auth?: { user: string; pass: string };
  connectionTimeout: number;
  greetingTimeout: number;
  socketTimeout: number;
}

/**
 * SMTP_URL as transport options: `smtps:` is TLS from the start (port 465 unless given), `smtp:`
 * upgrades with STARTTLS when offered (587 unless given); credentials from the URL's user info.
 * One timeout for the connection, the greeting and each reply.
 */
export function smtpTransportOptions(url: string, timeoutMs = 10_000): SmtpTransportOptions {
  const parsed = new URL(url);
  const secure = parsed.protocol === "smtps:";
  const auth = parsed.username ? { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) } : undefined;
  return {
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : secure ? 465 : 587,
    secure,
    ...(auth ? { auth } : {}),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  };
}
