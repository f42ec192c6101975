import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { queryRows } from '../../src/platform/db'
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { addMember, customerOf, provision, type Provisioned } from '../support/tenancy'

const KEY = 'sk-live-very-secret-key-0123456789'

let fake: FakeOpenAi
let h: Harness
let owner: RegisteredUser
let org: Provisioned
let admin: { token: string; headers: Record<string, string> }
beforeAll(async () => {
  fake = startFakeOpenAi({ apiKey: KEY, models: ['llama3.1:8b', 'qwen2.5:14b'] })
  // The fake service listens on 127.0.0.1.
  h = await createHarness({ PERSONA_SERVICE_PRIVATE_ADDRESSES: 'allow' })
  owner = await h.register()
  org = await provision(h, owner)
  admin = org.as(owner)
})
afterAll(async () => {
  await h.close()
  await fake.stop()
})

const create = (body: object) => h.call('POST', '/persona/services', { ...admin, body })

describe('persona service templates', () => {
  test('OpenAI, Ollama, OpenRouter and any OpenAI-compatible service, with documentation links; no credentials needed', async () => {
    const res = await h.call('GET', '/persona/service-templates')
    expect(res.status).toBe(200)
    expect(res.body.map((t: any) => t.id)).toEqual(['openai', 'ollama', 'openrouter', 'openai_compatible'])
    for (const t of res.body) expect(t.documentationUrl).toStartWith('https://')
    expect(res.body[0]).toMatchObject({ baseUrl: 'https://api.openai.com/v1', requiresApiKey: true, statusUrl: 'https://status.openai.com' })
  })
})

describe('persona services', () => {
  test('created from a template: its settings filled in, the key kept encrypted and shown only as hasApiKey', async () => {
    const res = await create({ templateId: 'openrouter', apiKey: KEY })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      templateId: 'openrouter',
      providerKind: 'openrouter',
      name: 'OpenRouter',
      baseUrl: 'https://openrouter.ai/api/v1',
      hasApiKey: true,
      connectStatus: 'never',
      models: [],
      documentationUrl: 'https://openrouter.ai/docs',
      statusUrl: 'https://status.openrouter.ai',
    })
    expect(JSON.stringify(res.body)).not.toContain(KEY)
    const [row] = await queryRows<Record<string, unknown>>(h.db, sql`select * from persona.services where id = ${res.body.id}`)
    expect(JSON.stringify(row)).not.toContain(KEY)
    expect(JSON.stringify(row)).not.toContain(Buffer.from(KEY).toString('base64'))
    expect(String(row!.api_key_sealed)).toStartWith('v1.')
    const read = await h.call('GET', `/persona/services/${res.body.id}`, admin)
    expect(JSON.stringify(read.body)).not.toContain(KEY)
    const list = await h.call('GET', '/persona/services', admin)
    expect(JSON.stringify(list.body)).not.toContain(KEY)
  })

  test('connect lists the models from the service (with the stored key) and records when', async () => {
    const created = await create({ name: 'Local', baseUrl: `${fake.url}/`, apiKey: KEY })
    expect(created.body).toMatchObject({ templateId: null, providerKind: 'openai_compatible', baseUrl: fake.url })
    const before = fake.requests.length
    const res = await h.call('POST', `/persona/services/${created.body.id}/connect`, admin)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ connectStatus: 'connected', connectError: null, hasApiKey: true })
    expect(res.body.models.map((m: any) => m.id)).toEqual(['llama3.1:8b', 'qwen2.5:14b'])
    expect(Date.parse(res.body.lastConnectedAt)).toBeGreaterThan(Date.now() - 60_000)
    expect(res.body.modelsFetchedAt).toBe(res.body.lastConnectedAt)
    expect(fake.requests.slice(before)).toEqual([{ path: '/v1/models', authorization: `Bearer ${KEY}`, body: null }])
  })

  test('a failed connect is recorded with its reason and keeps the last good connection', async () => {
    const created = await create({ baseUrl: fake.url, apiKey: KEY })
    const good = await h.call('POST', `/persona/services/${created.body.id}/connect`, admin)
    await h.call('PATCH', `/persona/services/${created.body.id}`, { ...admin, body: { apiKey: 'sk-wrong' } })
    const res = await h.call('POST', `/persona/services/${created.body.id}/connect`, admin)
    expect(res.status).toBe(200)
    expect(res.body.connectStatus).toBe('failed')
    expect(res.body.connectError).toBe('The model service answered 401: Incorrect API key provided: [redacted]')
    expect(res.body.lastConnectedAt).toBe(good.body.lastConnectedAt)
    const unreachable = await create({ baseUrl: 'http://127.0.0.1:9/v1' })
    const res2 = await h.call('POST', `/persona/services/${unreachable.body.id}/connect`, admin)
    expect(res2.body).toMatchObject({ connectStatus: 'failed', connectError: 'The model service cannot be reached', lastConnectedAt: null })
  })

  test('update: a new key or base URL resets the connection state; apiKey null removes the key', async () => {
    const created = await create({ baseUrl: fake.url, apiKey: KEY })
    await h.call('POST', `/persona/services/${created.body.id}/connect`, admin)
    const renamed = await h.call('PATCH', `/persona/services/${created.body.id}`, { ...admin, body: { name: 'Renamed' } })
    expect(renamed.body).toMatchObject({ name: 'Renamed', connectStatus: 'connected' })
    const keyless = await h.call('PATCH', `/persona/services/${created.body.id}`, { ...admin, body: { apiKey: null } })
    expect(keyless.body).toMatchObject({ hasApiKey: false, connectStatus: 'never' })
    const [row] = await queryRows<{ api_key_sealed: string | null }>(h.db, sql`select api_key_sealed from persona.services where id = ${created.body.id}`)
    expect(row!.api_key_sealed).toBeNull()
  })

  test('bad input', async () => {
    const cases: [object, string][] = [
      [{ templateId: 'nope' }, 'unknown_template'],
      [{}, 'base_url_required'],
      [{ templateId: 'openai_compatible' }, 'base_url_required'],
      [{ baseUrl: 'https://user:pass@llm.example.com/v1' }, 'invalid_base_url'],
      [{ baseUrl: 'ftp://llm.example.com' }, 'validation_failed'],
      [{ baseUrl: 'https://llm.example.com', apiKey: '' }, 'validation_failed'],
    ]
    for (const [body, code] of cases) {
      const res = await create(body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error.code).toBe(code)
    }
  })

  test('delete; then 404', async () => {
    const created = await create({ templateId: 'ollama' })
    expect((await h.call('DELETE', `/persona/services/${created.body.id}`, admin)).status).toBe(204)
    expect((await h.call('GET', `/persona/services/${created.body.id}`, admin)).status).toBe(404)
    expect((await h.call('POST', `/persona/services/${created.body.id}/connect`, admin)).status).toBe(404)
  })

  test('admins only: members and customers are refused', async () => {
    const member = await h.register()
    await addMember(h, org, owner, member, 'member')
    const customer = await customerOf(h, org, owner)
    for (const creds of [org.as(member), { token: customer.token }]) {
      expect((await h.call('GET', '/persona/services', creds)).status).toBe(403)
      expect((await h.call('POST', '/persona/services', { ...creds, body: { templateId: 'ollama' } })).status).toBe(403)
    }
  })
})
