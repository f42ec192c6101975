import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ConfigError, loadConfig } from '../../src/config'
import { auditEvents } from '../../src/modules/audit/schema'
import { chosenBy } from '../../src/platform/outbound'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { addMember, customerOf, provision, type Provisioned } from '../support/tenancy'

const SID = `AC${'a1'.repeat(16)}`
const SECRETS = ['smtp-pass-s3cret-value', 'twilio-token-s3cret-value', 'sk-openai-s3cret-value', 'webhook-s3cret-value', 'instance-token-s3cret-1']

let h: Harness
let owner: RegisteredUser
let org: Provisioned
const responses: string[] = []
beforeAll(async () => {
  h = await createHarness({
    SMTP_URL: 'smtp://127.0.0.1:2525',
    MAIL_FROM: 'Ecobase <no-reply@example.test>',
    TWILIO_ACCOUNT_SID: SID,
    TWILIO_AUTH_TOKEN: SECRETS[4]!,
    TWILIO_FROM: '+15550100000',
  })
  owner = await h.register()
  org = await provision(h, owner)
})
afterAll(() => h.close())

const put = async (slug: string, body: unknown, as = org.as(owner)) => {
  const res = await h.call('PUT', `/site/services/${slug}`, { ...as, body })
  responses.push(JSON.stringify(res.body))
  return res
}

describe('/site/services', () => {
  test('each kind stores its config sealed and shows only the key names', async () => {
    const configs = {
      mail: { kind: 'smtp', enabled: true, config: { host: 'smtp.example.test', port: 587, user: 'u', pass: SECRETS[0], from: 'Acme <a@acme.example>' } },
      sms: { kind: 'twilio', enabled: true, config: { accountSid: SID, authToken: SECRETS[1], from: '+15550100001' } },
      llm: { kind: 'openai', enabled: false, config: { apiKey: SECRETS[2] } },
      hook: { kind: 'webhook', enabled: true, config: { url: 'https://hooks.example.test/x', secret: SECRETS[3] } },
    }
    for (const [slug, body] of Object.entries(configs)) {
      const res = await put(slug, body)
      expect(res.status, slug).toBe(200)
      expect(res.body).toEqual({
        slug,
        kind: body.kind,
        enabled: body.enabled,
        configKeys: Object.keys(body.config).sort(),
        updatedAt: expect.stringMatching(/Z$/),
      })
    }
    const list = await h.call('GET', '/site/services', org.as(owner))
    responses.push(JSON.stringify(list.body))
    expect(list.body.map((s: { slug: string }) => s.slug)).toEqual(['hook', 'llm', 'mail', 'sms'])
    const one = await h.call('GET', '/site/services/sms', org.as(owner))
    responses.push(JSON.stringify(one.body))
    expect(one.body.configKeys).toEqual(['accountSid', 'authToken', 'from'])
    const replaced = await put('sms', {
      kind: 'twilio',
      enabled: false,
      config: { accountSid: SID, authToken: SECRETS[1], messagingServiceSid: `MG${'b2'.repeat(16)}` },
    })
    expect(replaced.body).toMatchObject({ enabled: false, configKeys: ['accountSid', 'authToken', 'messagingServiceSid'] })
  })

  test.each([
    [{ kind: 'pigeon', enabled: true, config: {} }, 'kind: one of smtp, twilio, openai, webhook'],
    [{ kind: 'smtp', enabled: true, config: { port: 25 } }, 'config: give url or host'],
    [{ kind: 'smtp', enabled: true, config: { url: 'http://x' } }, 'config.url'],
    // A JSON body's integer is a number, never a numeric string (platform/numbers.ts).
    [{ kind: 'smtp', enabled: true, config: { host: 'h', port: '587' } }, 'config.port'],
    [{ kind: 'smtp', enabled: true, config: { host: 'h', from: 'a@b.c\r\nBcc: victim@x.test' } }, 'config.from'],
    [{ kind: 'smtp', enabled: true, config: { host: 'h', colour: 'blue' } }, 'config.colour: not a setting of this kind'],
    [{ kind: 'twilio', enabled: true, config: { accountSid: 'nope', authToken: SECRETS[1], from: '+15550100001' } }, 'config.accountSid'],
    [{ kind: 'twilio', enabled: true, config: { accountSid: SID, authToken: SECRETS[1] } }, 'config: give from or messagingServiceSid'],
    [{ kind: 'twilio', enabled: true, config: { accountSid: SID, authToken: 'short', from: '+15550100001' } }, 'config.authToken'],
    [{ kind: 'openai', enabled: true, config: {} }, 'config.apiKey'],
    [{ kind: 'webhook', enabled: true, config: { url: 'ftp://x' } }, 'config.url'],
  ])('%j is 400 naming the key, never echoing a value', async (body, message) => {
    const res = await put('bad', body)
    expect(res.status).toBe(400)
    expect(res.body.error.message).toStartWith(message)
    expect(res.body.error.message).not.toContain('victim')
    expect(res.body.error.message).not.toContain(SECRETS[1])
  })

  test('only ecosystem admins; another ecosystem sees none of it; delete', async () => {
    const member = await h.register()
    await addMember(h, org, owner, member, 'member')
    const customer = await customerOf(h, org, owner)
    expect((await h.call('GET', '/site/services', org.as(member))).status).toBe(403)
    expect((await h.call('GET', '/site/services', { token: customer.token })).status).toBe(403)
    const strangerOwner = await h.register()
    const stranger = await provision(h, strangerOwner)
    expect((await h.call('GET', '/site/services/mail', { token: strangerOwner.token, headers: { 'x-ecosystem-id': org.ecosystem.id } })).status).toBe(403)
    expect((await h.call('GET', '/site/services/mail', stranger.as(strangerOwner))).status).toBe(404)
    expect((await h.call('GET', '/site/services', stranger.as(strangerOwner))).body).toEqual([])
    expect((await h.call('DELETE', '/site/services/mail', stranger.as(strangerOwner))).status).toBe(404)
    expect((await h.call('DELETE', '/site/services/hook', org.as(owner))).status).toBe(204)
    expect((await h.call('GET', '/site/services/hook', org.as(owner))).status).toBe(404)
  })

  test("a send uses the ecosystem's own enabled service, else the instance default", async () => {
    const site = h.app.services.site.sites
    const own = await site.effectiveProvider(org.ecosystem.id, 'smtp')
    expect(own).toMatchObject({ source: 'ecosystem', config: { host: 'smtp.example.test', pass: SECRETS[0] } })
    // The ecosystem's server goes through the outbound gate when used; the operator's is trusted.
    expect(chosenBy(own!.config)).toEqual({ by: 'tenant', policy: 'deny' })
    const twilio = await site.effectiveProvider(org.ecosystem.id, 'twilio')
    expect(JSON.parse(JSON.stringify(twilio))).toEqual({ source: 'instance', config: { accountSid: SID, authToken: SECRETS[4], from: '+15550100000' } })
    const other = await provision(h, owner)
    const instance = await site.effectiveProvider(other.ecosystem.id, 'smtp')
    expect(JSON.parse(JSON.stringify(instance))).toEqual({
      source: 'instance',
      config: { url: 'smtp://127.0.0.1:2525', from: 'Ecobase <no-reply@example.test>' },
    })
    expect(chosenBy(instance!.config)).toEqual({ by: 'operator' })
  })

  test('no secret value ever appeared in a response, a log line or an audit event', async () => {
    const seen = [...responses, ...h.logLines].join('\n')
    for (const secret of SECRETS) expect(seen).not.toContain(secret)
    // Every stored audit event, metadata included: the services' changes are there by key name only.
    const events = await h.db.select().from(auditEvents)
    expect(events.filter((e) => e.action.startsWith('site.service.')).length).toBeGreaterThan(0)
    const stored = JSON.stringify(events)
    for (const secret of SECRETS) expect(stored).not.toContain(secret)
  })
})

describe('instance defaults', () => {
  test('TWILIO_* go together; nothing configured means no provider', async () => {
    expect(() => loadConfig({ TWILIO_ACCOUNT_SID: SID })).toThrow(ConfigError)
    expect(loadConfig({}).providers).toEqual({ smtp: null, twilio: null })
  })
})
