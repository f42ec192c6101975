import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { provision, type Provisioned } from '../support/tenancy'

/**
 * ALLOW_PRIVATE_ADDRESSES=true, the one setting for a laptop: every kind of outbound target an
 * ecosystem admin names may be on loopback, none on a link-local or cloud-metadata address.
 */
/** Saves a target of one kind on `host`, as a URL's host is written (IPv6 in brackets). */
type Save = (host: string) => Promise<{ status: number; body: any }>

let h: Harness
let owner: RegisteredUser
let org: Provisioned
let llm: FakeOpenAi
beforeAll(async () => {
  h = await createHarness({ ALLOW_PRIVATE_ADDRESSES: 'true' })
  owner = await h.register()
  org = await provision(h, owner)
  llm = startFakeOpenAi()
})
afterAll(async () => {
  await h.close()
  await llm.stop()
})

const as = () => org.as(owner)
const kinds: [string, Save][] = [
  ['webhook', (host) => h.call('POST', '/integrations/webhooks', { ...as(), body: { url: `http://${host}:8080/hook`, events: [] } })],
  ['monitored site', (host) => h.call('POST', '/monitored_sites/sites', { ...as(), body: { name: 'Local', url: `http://${host}:8080/`, intervalMinutes: 5 } })],
  [
    'site service (smtp)',
    (host) =>
      h.call('PUT', '/site/services/mail', { ...as(), body: { kind: 'smtp', enabled: true, config: { host: host.replace(/^\[|\]$/g, ''), port: 2525 } } }),
  ],
  ['persona service', (host) => h.call('POST', '/persona/services', { ...as(), body: { baseUrl: `http://${host}:11434/v1` } })],
]

describe('ALLOW_PRIVATE_ADDRESSES=true', () => {
  test.each(kinds)('a %s on 127.0.0.1 is accepted', async (_, save) => {
    const res = await save('127.0.0.1')
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300)
  })

  test.each(kinds)('a %s on a link-local or cloud-metadata address is still refused', async (name, save) => {
    for (const host of ['169.254.169.254', '[fe80::1]', '[fd00:ec2::254]']) {
      const res = await save(host)
      expect(res.status, `${name} ${host}`).toBe(400)
    }
  })

  test('a persona service on loopback is reached when used, not only accepted when saved', async () => {
    const created = await h.call('POST', '/persona/services', { ...as(), body: { baseUrl: llm.url } })
    expect(created.status).toBe(201)
    const connected = await h.call('POST', `/persona/services/${created.body.id}/connect`, as())
    expect(connected.body).toMatchObject({ connectStatus: 'connected', connectError: null })
    expect(llm.requests.map((r) => r.path)).toContain('/v1/models')
  })
})
