import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message as the SMTP server received it. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface SmtpInbox {
  port: number;
  /** Every message received, in order. */
  messages: ReceivedMail[];
  /** Called after each message is stored (tests wake their waiters here). */
  onMessage(listener: () => void): void;
  close(): Promise<void>;
}

/** A real SMTP server on a loopback port (no TLS, any sender) that keeps what it receives. */
export async function startSmtpInbox(): Promise<SmtpInbox> {
  const messages: ReceivedMail[] = [];
  let listener: () => void = () => {};
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        listener();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  return {
    port: (smtp.server.address() as AddressInfo).port,
    messages,
    onMessage: (next) => {
      listener = next;
    },
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
