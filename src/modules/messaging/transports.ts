import type { Transporter } from 'nodemailer'
import type SMTPPool from 'nodemailer/lib/smtp-pool'
import type TwilioSdk from 'twilio'

/**
 * The provider SDKs load at their first send: importing them at boot cost the embedded server
 * about a second of start-up and tens of MB that an instance which never sends would pay (P7).
 */
const importNodemailer = () => import('nodemailer')
const importTwilio = () => import('twilio')
let nodemailerSdk: ReturnType<typeof importNodemailer> | undefined
let twilioSdk: ReturnType<typeof importTwilio> | undefined
const loadNodemailer = async () => (await (nodemailerSdk ??= importNodemailer())).default
const loadTwilio = async (): Promise<typeof TwilioSdk> => (await (twilioSdk ??= importTwilio())).default

/** What a transport reports: the provider's message id, or why it did not take the message. */
export type Delivery = { ok: true; providerId: string } | { ok: false; error: string }

export interface EmailMessage {
  from: string
  to: string
  toName?: string | null
  subject: string
  text: string
  html?: string
  headers?: Record<string, string>
}

export interface SmsMessage {
  to: string
  body: string
}

/** A plain address: one line, one `@`, no comma, quote or angle bracket, so it can only ever name one recipient. */
export const PLAIN_ADDRESS = /^[^\s@,;<>"'()\\]+@[^\s@,;<>"'()\\]+\.[^\s@,;<>"'()\\]+$/
export const E164 = /^\+[1-9][0-9]{6,14}$/

const MAX_CACHED = 100

/**
 * Provider clients, built from a site-service or instance config and kept per distinct config
 * (pooled SMTP connections are reused between sends). Every call has a deadline; failures come
 * back as `{ ok: false, error }` with the provider's reason, never as a throw.
 */
export class Transports {
  private readonly smtp = new Map<string, Transporter>()

  constructor(private readonly options: { timeoutMs: number; twilioApiUrl: string | null }) {}

  async sendEmail(config: Record<string, unknown>, message: EmailMessage): Promise<Delivery> {
    if (!PLAIN_ADDRESS.test(message.to)) return { ok: false, error: 'The recipient is not a plain e-mail address' }
    try {
      const info = await (await this.mailer(config)).sendMail({
        from: message.from,
        to: { name: message.toName ?? '', address: message.to },
        envelope: { from: envelopeSender(message.from), to: [message.to] },
        subject: message.subject,
        text: message.text,
        html: message.html,
        headers: message.headers,
        disableFileAccess: true,
        disableUrlAccess: true,
      })
      return { ok: true, providerId: String(info.messageId) }
    } catch (err) {
      return { ok: false, error: providerReason(err) }
    }
  }

  async sendSms(config: Record<string, unknown>, message: SmsMessage): Promise<Delivery> {
    const to = message.to.replace(/[\s()-]/g, '')
    if (!E164.test(to)) return { ok: false, error: 'The recipient is not an E.164 phone number (+ and country code)' }
    const accountSid = String(config.accountSid)
    const twilio = await loadTwilio()
    const client = twilio(accountSid, String(config.authToken), {
      accountSid,
      httpClient: this.twilioHttpClient(twilio),
    })
    const sender = config.messagingServiceSid ? { messagingServiceSid: String(config.messagingServiceSid) } : { from: String(config.from) }
    try {
      const sent = await client.messages.create({ to, body: message.body, ...sender })
      return { ok: true, providerId: sent.sid }
    } catch (err) {
      return { ok: false, error: providerReason(err) }
    }
  }

  /** Closes pooled SMTP connections. */
  close(): void {
    for (const transport of this.smtp.values()) transport.close()
    this.smtp.clear()
  }

  private async mailer(config: Record<string, unknown>): Promise<Transporter> {
    const key = JSON.stringify(config)
    const cached = this.smtp.get(key)
    if (cached) return cached
    const nodemailer = await loadNodemailer()
    // Another send may have made it while the SDK loaded.
    let transport = this.smtp.get(key)
    if (transport) return transport
    const timeouts = { connectionTimeout: this.options.timeoutMs, greetingTimeout: this.options.timeoutMs, socketTimeout: this.options.timeoutMs }
    const server: SMTPPool.Options & { url?: string } = config.url
      ? { url: String(config.url) }
      : {
          host: String(config.host),
          port: config.port === undefined ? undefined : Number(config.port),
          secure: config.secure === true,
          auth: config.user ? { user: String(config.user), pass: String(config.pass ?? '') } : undefined,
        }
    transport = nodemailer.createTransport({ ...server, pool: true, ...timeouts })
    if (this.smtp.size >= MAX_CACHED) {
      const [oldestKey, oldest] = this.smtp.entries().next().value!
      oldest.close()
      this.smtp.delete(oldestKey)
    }
    this.smtp.set(key, transport)
    return transport
  }

  private twilioHttpClient(twilio: typeof TwilioSdk) {
    const timeout = this.options.timeoutMs
    const base = this.options.twilioApiUrl
    return new (class extends twilio.RequestClient {
      override request<T>(opts: Parameters<TwilioSdk.RequestClient['request']>[0] & { data?: T }) {
        const uri = base ? opts.uri.replace(/^https:\/\/api\.twilio\.com/, base) : opts.uri
        return super.request<T>({ ...opts, uri, timeout, allowRedirects: false })
      }
    })({ timeout })
  }
}

/** The bare address of a From value such as `Acme <no-reply@acme.example>`. */
function envelopeSender(from: string): string {
  return /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from
}

/** The provider's own words (SMTP response, Twilio error), one line and short; never the config. */
function providerReason(err: unknown): string {
  const e = err as { response?: string; message?: string; code?: string | number; status?: number }
  const text = e.response ?? e.message ?? String(err)
  const prefix = e.status ? `${e.status} ` : ''
  return `${prefix}${text}`.replace(/\s+/g, ' ').slice(0, 500)
}
