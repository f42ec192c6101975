import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { provision, type Provisioned } from '../support/tenancy'

/**
 * Every place an ecosystem admin names a server the instance will connect to refuses, when it is
 * saved, a host that is (or is a name resolving only to) a private, link-local, CGNAT or mapped
 * address, in any spelling, under the default `deny` settings.
 */
const URL_HOSTS = [
  '127.0.0.1',
  'localhost',
  '10.0.0.1',
  '192.168.1.20',
  '172.16.0.1',
  '169.254.169.254',
  '100.64.0.1',
  '[::1]',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '2130706433',
  '0x7f000001',
  '0177.0.0.1',
]
const SMTP_HOSTS = [
  '127.0.0.1',
  'localhost',
  '10.0.0.1',
  '192.168.1.20',
  '172.16.0.1',
  '169.254.169.254',
  '100.64.0.1',
  '2130706433',
  '0x7f000001',
  '0177.0.0.1',
  '127.1',
]
const NOWHERE = 'nowhere.example.test'

let h: Harness
let owner: RegisteredUser
let org: Provisioned
beforeAll(async () => {
  h = await createHarness()
  owner = await h.register()
  org = await provision(h, owner)
})
afterAll(() => h.close())

type Kind = { name: string; field: string; code?: string; hosts: string[]; save(host: string): Promise<{ status: number; body: any }> }

const as = () => org.as(owner)
/** One row per kind, saved once with a name that does not resolve, then changed (DNS lookups here can stall for seconds). */
const rows = new Map<string, Promise<string>>()
const once = (path: string, body: object) => {
  if (!rows.has(path))
    rows.set(
      path,
      h.call('POST', path, { ...as(), body }).then((res) => res.body.id as string),
    )
  return rows.get(path)!
}
const kinds: Kind[] = [
  {
    name: 'webhook',
    field: 'url',
    hosts: URL_HOSTS,
    save: (host) => h.call('POST', '/integrations/webhooks', { ...as(), body: { url: `https://${host}/hook`, events: [] } }),
  },
  {
    name: 'webhook (update)',
    field: 'url',
    hosts: URL_HOSTS,
    async save(host) {
      const id = await once('/integrations/webhooks', { url: `https://${NOWHERE}/hook`, events: [] })
      return h.call('PATCH', `/integrations/webhooks/${id}`, { ...as(), body: { url: `https://${host}/hook` } })
    },
  },
  {
    name: 'monitored site',
    field: 'url',
    hosts: URL_HOSTS,
    save: (host) => h.call('POST', '/monitored_sites/sites', { ...as(), body: { name: 'Site', url: `http://${host}/health`, intervalMinutes: 5 } }),
  },
  {
    name: 'monitored site (update)',
    field: 'url',
    hosts: URL_HOSTS,
    async save(host) {
      const id = await once('/monitored_sites/sites', { name: 'Site', url: `https://${NOWHERE}/`, intervalMinutes: 5 })
      return h.call('PATCH', `/monitored_sites/sites/${id}`, { ...as(), body: { url: `https://${host}/health` } })
    },
  },
  {
    name: 'site service smtp host',
    field: 'config.host',
    hosts: SMTP_HOSTS,
    save: (host) => h.call('PUT', '/site/services/mail', { ...as(), body: { kind: 'smtp', enabled: true, config: { host, port: 25 } } }),
  },
  {
    name: 'site service smtp url',
    field: 'config.url',
    hosts: URL_HOSTS,
    save: (host) => h.call('PUT', '/site/services/mail', { ...as(), body: { kind: 'smtp', enabled: true, config: { url: `smtp://${host}:25` } } }),
  },
  {
    name: 'site service openai',
    field: 'config.baseUrl',
    hosts: URL_HOSTS,
    save: (host) =>
      h.call('PUT', '/site/services/llm', { ...as(), body: { kind: 'openai', enabled: true, config: { apiKey: 'sk-x', baseUrl: `http://${host}/v1` } } }),
  },
  {
    name: 'site service webhook',
    field: 'config.url',
    hosts: URL_HOSTS,
    save: (host) => h.call('PUT', '/site/services/hook', { ...as(), body: { kind: 'webhook', enabled: true, config: { url: `https://${host}/in` } } }),
  },
  {
    name: 'persona service',
    field: 'baseUrl',
    code: 'base_url_not_allowed',
    hosts: URL_HOSTS,
    save: (host) => h.call('POST', '/persona/services', { ...as(), body: { baseUrl: `http://${host}/v1` } }),
  },
  {
    name: 'persona service (update)',
    field: 'baseUrl',
    code: 'base_url_not_allowed',
    hosts: URL_HOSTS,
    async save(host) {
      const id = await once('/persona/services', { baseUrl: `https://${NOWHERE}/v1` })
      return h.call('PATCH', `/persona/services/${id}`, { ...as(), body: { baseUrl: `http://${host}/v1` } })
    },
  },
]

describe('outbound addresses are checked when saved (every *_PRIVATE_ADDRESSES at deny)', () => {
  test.each(kinds.map((k) => [k.name, k] as const))(
    '%s: loopback, private, link-local, CGNAT, mapped and odd spellings are 400 naming the field; a name not resolving yet is accepted',
    async (_, kind) => {
      for (const host of kind.hosts) {
        const res = await kind.save(host)
        expect(res.status, `${kind.name} ${host}`).toBe(400)
        expect(res.body.error.code, host).toBe(kind.code ?? 'validation_failed')
        expect(res.body.error.message, host).toStartWith(kind.code ? 'baseUrl must point at a public address; ' : `${kind.field}: `)
        expect(res.body.error.message, host).toMatch(kind.code ? / is not one$/ : /(private|link-local)/)
        // A name is refused for what it resolves to, never saying which address that was.
        if (host === 'localhost') expect(res.body.error.message).not.toContain('127.0.0.1')
      }
      expect((await kind.save(NOWHERE)).status, kind.name).toBeLessThan(300)
    },
    30_000,
  )
})
