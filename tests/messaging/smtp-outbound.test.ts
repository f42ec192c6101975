import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { Transports } from '../../src/modules/messaging/transports'
import { siteServices } from '../../src/modules/site/schema'
import { sealSecret } from '../../src/platform/crypto'
import { markChosenBy, type Resolver } from '../../src/platform/outbound'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { startSmtp } from '../support/smtp'
import { provision, type Provisioned } from '../support/tenancy'
import { contactCustomer } from './support'

const PRIVATE = 'a private address (loopback, private network, carrier-grade NAT or unique-local)'

/** A DNS stub answering the first lookup with `first` and every later one with `then` (rebinding); it counts the lookups. */
function rebinding(first: string[], then: string[]): Resolver & { calls: number } {
  const resolve = Object.assign(async () => (resolve.calls++ === 0 ? first : then), { calls: 0 })
  return resolve
}

// smtp-server listens on 127.0.0.1 only: a connection to 127.0.0.2 finds nobody.
const smtp = await startSmtp()
const authed = await startSmtp({ auth: { user: 'mailer', pass: 'p@ss w0rd' } })
afterAll(() => Promise.all([smtp.close(), authed.close()]))

const message = (subject: string) => ({
  from: 'Shop <shop@example.test>',
  to: 'ada@example.test',
  subject,
  text: 'hello',
  messageId: `<${subject.replace(/\W/g, '-')}@example.test>`,
})
const tenant = (config: Record<string, unknown>, policy: 'deny' | 'allow') => markChosenBy(config, { by: 'tenant', policy })

describe('Transports: a tenant SMTP server through the outbound gate', () => {
  test('a send resolves the host once and connects to that address: a name rebinding to 127.0.0.2 after the check still delivers at 127.0.0.1', async () => {
    const resolve = rebinding(['127.0.0.1'], ['127.0.0.2'])
    const transports = new Transports({ timeoutMs: 2000, twilioApiUrl: null, resolve })
    try {
      expect(await transports.sendEmail(tenant({ host: 'mail.example.test', port: smtp.port }, 'allow'), message('pinned'))).toMatchObject({ ok: true })
      expect(resolve.calls).toBe(1)
      expect(smtp.received.at(-1)!.parsed.subject).toBe('pinned')
    } finally {
      transports.close()
    }
  })

  test('every send checks again (one lookup each), so a name that moves to a refused address is refused from then on', async () => {
    const resolve = rebinding(['127.0.0.1'], ['169.254.169.254'])
    const transports = new Transports({ timeoutMs: 2000, twilioApiUrl: null, resolve })
    try {
      const config = tenant({ host: 'mail.example.test', port: smtp.port }, 'allow')
      expect(await transports.sendEmail(config, message('first'))).toMatchObject({ ok: true })
      expect(await transports.sendEmail(config, message('moved'))).toEqual({
        ok: false,
        error: 'Refused to connect to mail.example.test: it has a link-local, cloud-metadata or reserved address',
      })
      expect(resolve.calls).toBe(2)
      expect(smtp.received.at(-1)!.parsed.subject).toBe('first')
    } finally {
      transports.close()
    }
  })

  test('the url form is pinned too, its credentials taken from the URL', async () => {
    const resolve = rebinding(['127.0.0.1'], ['127.0.0.2'])
    const transports = new Transports({ timeoutMs: 2000, twilioApiUrl: null, resolve })
    try {
      const config = tenant({ url: `smtp://mailer:${encodeURIComponent('p@ss w0rd')}@mail.example.test:${authed.port}` }, 'allow')
      expect(await transports.sendEmail(config, message('by url'))).toMatchObject({ ok: true })
      expect(resolve.calls).toBe(1)
      expect(authed.received.at(-1)!.parsed.subject).toBe('by url')
    } finally {
      transports.close()
    }
  })

  test('under deny a host on loopback, or a name resolving to a private address, is refused before connecting, never saying the address', async () => {
    const resolve = rebinding(['10.0.0.25'], ['127.0.0.1'])
    const transports = new Transports({ timeoutMs: 2000, twilioApiUrl: null, resolve })
    const before = smtp.received.length
    try {
      for (const [config, host] of [
        [{ host: '127.0.0.1', port: smtp.port }, '127.0.0.1'],
        [{ host: '2130706433', port: smtp.port }, '2130706433'],
        [{ url: `smtp://127.0.0.1:${smtp.port}` }, '127.0.0.1'],
        [{ url: `smtp://[::ffff:127.0.0.1]:${smtp.port}` }, '[::ffff:7f00:1]'],
        [{ host: 'mail.example.test', port: smtp.port }, 'mail.example.test'],
      ] as const) {
        const sent = await transports.sendEmail(tenant({ ...config }, 'deny'), message('refused'))
        expect(sent, JSON.stringify(config)).toEqual({ ok: false, error: `Refused to connect to ${host}: it has ${PRIVATE}` })
      }
      // A config that says nothing of who chose it counts as a tenant's under deny.
      expect(await transports.sendEmail({ host: '127.0.0.1', port: smtp.port }, message('unmarked'))).toMatchObject({
        ok: false,
        error: expect.stringContaining(PRIVATE),
      })
      expect(smtp.received.length).toBe(before)
      // The operator's own server (SMTP_URL) is trusted.
      expect(await transports.sendEmail(markChosenBy({ url: `smtp://127.0.0.1:${smtp.port}` }, { by: 'operator' }), message('operator'))).toMatchObject({
        ok: true,
      })
    } finally {
      transports.close()
    }
  })

  test('a provider error names the host, not the address it resolved to', async () => {
    const closed = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
    const port = closed.port
    closed.stop(true)
    const transports = new Transports({ timeoutMs: 1000, twilioApiUrl: null, resolve: async () => ['127.0.0.1'] })
    try {
      const sent = await transports.sendEmail(tenant({ host: 'mail.example.test', port }, 'allow'), message('nobody'))
      expect(sent).toEqual({ ok: false, error: expect.stringContaining('mail.example.test') })
      expect(JSON.stringify(sent)).not.toContain('127.0.0.1')
    } finally {
      transports.close()
    }
  })
})

describe('an ecosystem SMTP service on loopback (SITE_SERVICE_PRIVATE_ADDRESSES)', () => {
  let h: Harness
  let owner: RegisteredUser
  let org: Provisioned
  beforeAll(async () => {
    h = await createHarness({ MESSAGING_TIMEOUT_SECONDS: '2' })
    owner = await h.register()
    org = await provision(h, owner)
  })
  afterAll(() => h.close())

  test('deny (default): refused when saved, and a stored one cannot reach the server when sending', async () => {
    for (const config of [{ host: '127.0.0.1', port: smtp.port }, { url: `smtp://127.0.0.1:${smtp.port}` }]) {
      const res = await h.call('PUT', '/site/services/mail', { ...org.as(owner), body: { kind: 'smtp', enabled: true, config } })
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe('validation_failed')
      expect(res.body.error.message).toStartWith(`config.${'url' in config ? 'url' : 'host'}: 127.0.0.1 is ${PRIVATE}`)
    }
    // One saved before the check existed.
    expect(
      (await h.call('PUT', '/site/services/mail', { ...org.as(owner), body: { kind: 'smtp', enabled: true, config: { host: 'mail.example.test' } } })).status,
    ).toBe(200)
    const sealed = sealSecret(h.deps.secret, 'site-service-config', JSON.stringify({ host: '127.0.0.1', port: smtp.port, from: 'Shop <shop@example.test>' }))
    await h.db
      .update(siteServices)
      .set({ configSealed: sealed })
      .where(and(eq(siteServices.ecosystemId, org.ecosystem.id), eq(siteServices.slug, 'mail')))
    const customerId = await contactCustomer(h, org, owner, { email: 'ada@example.test' })
    const before = smtp.received.length
    const sent = await h.call('POST', '/messaging/email', { ...org.as(owner), body: { customerId, subject: 'scan', text: 't' } })
    expect(sent.body).toEqual({ status: 'failed', error: `Refused to connect to 127.0.0.1: it has ${PRIVATE}` })
    expect(smtp.received.length).toBe(before)
  })

  test('allow: the same server is saved and reached', async () => {
    const open = await createHarness({ SITE_SERVICE_PRIVATE_ADDRESSES: 'allow', MESSAGING_TIMEOUT_SECONDS: '2' })
    try {
      const admin = await open.register()
      const shop = await provision(open, admin)
      const saved = await open.call('PUT', '/site/services/mail', {
        ...shop.as(admin),
        body: { kind: 'smtp', enabled: true, config: { url: `smtp://localhost:${smtp.port}`, from: 'Shop <shop@example.test>' } },
      })
      expect(saved.status).toBe(200)
      const customerId = await contactCustomer(open, shop, admin, { email: 'bob@example.test' })
      const sent = await open.call('POST', '/messaging/email', { ...shop.as(admin), body: { customerId, subject: 'allowed', text: 't' } })
      expect(sent.body.status).toBe('sent')
      expect(smtp.received.at(-1)!.parsed.subject).toBe('allowed')
      // Link-local and metadata addresses stay refused.
      const metadata = await open.call('PUT', '/site/services/mail', {
        ...shop.as(admin),
        body: { kind: 'smtp', enabled: true, config: { host: '169.254.169.254' } },
      })
      expect(metadata.status).toBe(400)
    } finally {
      await open.close()
    }
  })
})
