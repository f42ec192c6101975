import type { Transporter } from 'nodemailer'
import type SMTPPool from 'nodemailer/lib/smtp-pool'
import type TwilioSdk from 'twilio'
import { chosenBy, hideAddress, OutboundRefused, OutboundUnresolved, pinHost, type PinnedHost, type Resolver, smtpServer } from '../../platform/outbound'

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
  /** The Message-ID header (`<id@host>`): the same for every retry of one send, so receivers can drop repeats. */
  messageId: string
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
 * back as `{ ok: false, error }` with the provider's reason, never as a throw. An SMTP server a
 * tenant chose goes through the outbound gate at each send: its host is resolved once, refused
 * when an address is not allowed, and connected to at the address checked (the name kept for TLS).
 */
export class Transports {
  private readonly smtp = new Map<string, Transporter>()

  constructor(private readonly options: { timeoutMs: number; twilioApiUrl: string | null; smsStatusCallback?: string; resolve?: Resolver }) {}

  async sendEmail(config: Record<string, unknown>, message: EmailMessage): Promise<Delivery> {
    if (!PLAIN_ADDRESS.test(message.to)) return { ok: false, error: 'The recipient is not a plain e-mail address' }
    let pinned: PinnedHost | null = null
    try {
      const mailer = await this.mailer(config, (p) => (pinned = p))
      const info = await mailer.sendMail({
        from: message.from,
        to: { name: message.toName ?? '', address: message.to },
        envelope: { from: envelopeSender(message.from), to: [message.to] },
        subject: message.subject,
        text: message.text,
        html: message.html,
        headers: message.headers,
        messageId: message.messageId,
        disableFileAccess: true,
        disableUrlAccess: true,
      })
      return { ok: true, providerId: String(info.messageId) }
    } catch (err) {
      if (err instanceof OutboundRefused || err instanceof OutboundUnresolved) return { ok: false, error: err.message }
      const reason = providerReason(err)
      return { ok: false, error: pinned ? hideAddress(reason, pinned) : reason }
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
      const callback = this.options.smsStatusCallback ? { statusCallback: this.options.smsStatusCallback } : {}
      const sent = await client.messages.create({ to, body: message.body, ...sender, ...callback })
      return { ok: true, providerId: sent.sid }
    } catch (err) {
      return { ok: false, error: providerReason(err) }
    }
  }

  /** Whether Twilio signed a request (X-Twilio-Signature) with this auth token, checked by the twilio SDK. */
  async validTwilioSignature(authToken: string, signature: string, url: string, params: Record<string, string>): Promise<boolean> {
    const twilio = await loadTwilio()
    return twilio.validateRequest(authToken, signature, url, params)
  }

  /** Closes pooled SMTP connections. */
  close(): void {
    for (const transport of this.smtp.values()) transport.close()
    this.smtp.clear()
  }

  /** The pooled transport for a config; a tenant's server is pinned first (`onPinned` gets it). */
  private async mailer(config: Record<string, unknown>, onPinned: (pinned: PinnedHost) => void): Promise<Transporter> {
    const who = chosenBy(config)
    let server: SMTPPool.Options & { url?: string }
    let key: string
    if (who.by === 'operator') {
      server = config.url
        ? { url: String(config.url) }
        : {
            host: String(config.host),
            port: config.port === undefined ? undefined : Number(config.port),
            secure: config.secure === true,
            auth: config.user ? { user: String(config.user), pass: String(config.pass ?? '') } : undefined,
          }
      key = JSON.stringify(['operator', config])
    } else {
      const target = smtpServer(config)
      if (!target) throw new OutboundRefused('Refused to connect: the SMTP url is not an smtp:// or smtps:// URL')
      const pinned = await pinHost(target.host, who.policy, { resolve: this.options.resolve, signal: AbortSignal.timeout(this.options.timeoutMs) })
      onPinned(pinned)
      // The checked address, never the name again; the name stays the TLS server name (SNI and certificate).
      const name = pinned.literal ? {} : { servername: pinned.hostname, tls: { servername: pinned.hostname } }
      server = { host: pinned.address, port: target.port, secure: target.secure, auth: target.auth, ...name }
      // Per address: a name that moves gets a pool of its own instead of the old address's.
      key = JSON.stringify(['tenant', who.policy, pinned.address, config])
    }
    const cached = this.smtp.get(key)
    if (cached) return cached
    const nodemailer = await loadNodemailer()
    // Another send may have made it while the SDK loaded.
    let transport = this.smtp.get(key)
    if (transport) return transport
    const timeouts = { connectionTimeout: this.options.timeoutMs, greetingTimeout: this.options.timeoutMs, socketTimeout: this.options.timeoutMs }
    transport = nodemailer.createTransport({ ...server, pool: true, ...timeouts, ...dkimOf(config) })
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

/** nodemailer's DKIM signing, when the SMTP settings name a domain, selector and key (checked when saved). */
function dkimOf(config: Record<string, unknown>): { dkim?: { domainName: string; keySelector: string; privateKey: string } } {
  if (!config.dkimDomain || !config.dkimSelector || !config.dkimPrivateKey) return {}
  return { dkim: { domainName: String(config.dkimDomain), keySelector: String(config.dkimSelector), privateKey: String(config.dkimPrivateKey) } }
}
