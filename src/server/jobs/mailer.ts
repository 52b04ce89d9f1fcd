import nodemailer from 'nodemailer';
import type { Secret } from '../secret.js';
import { headerLine } from '../services/alerts/alert-messages.js';
import type { SendResult } from './webhook-sender.js';

export interface Mailer {
  /** Sends one stored digest (`{to, subject, text, html}` as JSON). */
  send(body: string): Promise<SendResult>;
  close(): void;
}

interface StoredMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * E-mail digests through nodemailer over SMTP_URL (smtp:// or smtps://, credentials in the URL:
 * a Secret, never logged). A 4xx SMTP reply or a network failure is retried by the outbox;
 * a 5xx reply (unknown mailbox, refused sender) is not.
 */
export function createMailer(
  smtpUrl: Secret,
  from: string,
  timeouts: { connectMs: number; totalMs: number },
): Mailer {
  // Every digest is one short exchange; no pooled connection is left open between batches.
  const transport = nodemailer.createTransport({
    url: smtpUrl.reveal(),
    connectionTimeout: timeouts.connectMs,
    greetingTimeout: timeouts.connectMs,
    socketTimeout: timeouts.totalMs,
  });
  return {
    async send(body) {
      const started = Date.now();
      const mail = JSON.parse(body) as StoredMail;
      try {
        // Only these four fields, the Subject kept to one line: a stored body cannot add headers.
        await transport.sendMail({
          from,
          to: mail.to,
          subject: headerLine(mail.subject),
          text: mail.text,
          html: mail.html,
        });
        return {
          status: 250,
          retryAfterMs: null,
          durationMs: Date.now() - started,
          error: null,
          retryable: false,
        };
      } catch (error) {
        const code = (error as { responseCode?: number }).responseCode ?? null;
        const words = code
          ? `the SMTP server answered ${code}`
          : `SMTP failed: ${(error as { code?: string }).code ?? 'network error'}`;
        return {
          status: code,
          retryAfterMs: null,
          durationMs: Date.now() - started,
          error: words,
          retryable: code === null || (code >= 400 && code < 500),
        };
      }
    },
    close: () => transport.close(),
  };
}
