import nodemailer from 'nodemailer'

export interface Mail { to: string, subject: string, text: string }

/** Sends the platform's mail (staff invitations) through the SMTP server of SMTP_URL. */
export interface Mailer {
  send: (mail: Mail) => Promise<void>
  close: () => void
}

/** An SMTP mailer (nodemailer: pooled connections, STARTTLS when the server offers it), or null without SMTP_URL. */
export function createMailer (smtp: { url: string, from: string } | null): Mailer | null {
  if (smtp === null) return null
  const transport = nodemailer.createTransport(smtp.url)
  return {
    async send (mail) {
      await transport.sendMail({ from: smtp.from, to: mail.to, subject: mail.subject, text: mail.text })
    },
    close: () => { transport.close() }
  }
}
