import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { chatActor, newConversation, replyText, send } from '../chat/support'
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai'
import { createHarness, type Harness } from '../support/harness'
import { createPersona } from '../support/personas'

const PRIVATE_REFUSAL = 'Refused to connect to localhost: it has a private address (loopback, private network, carrier-grade NAT or unique-local)'
const METADATA_REFUSAL = 'Refused to connect to 169.254.169.254: it has a link-local, cloud-metadata or reserved address'

/** An ecosystem with an admin credential and a customer, on `h`. */
async function tenant(h: Harness) {
  const actor = await chatActor(h)
  const admin = actor.org.as(actor.owner)
  const create = (baseUrl: string) => h.call('POST', '/persona/services', { ...admin, body: { baseUrl } })
  const connect = (id: string) => h.call('POST', `/persona/services/${id}/connect`, admin)
  return { actor, admin, create, connect }
}

/** A conversation with a persona on `serviceId`; the streamed events of one message. */
async function chatThrough(h: Harness, t: Awaited<ReturnType<typeof tenant>>, serviceId: string) {
  const persona = await createPersona(h, t.admin, { serviceId, model: 'fake-echo' })
  const c = await newConversation(h, t.actor, { personaSlug: persona.slug })
  return send(h, t.actor, c.id, { message: 'hello' })
}

let fake: FakeOpenAi
beforeAll(() => {
  fake = startFakeOpenAi()
})
afterAll(() => fake.stop())

describe('default (PERSONA_SERVICE_PRIVATE_ADDRESSES=deny): persona services reach public addresses only', () => {
  let h: Harness
  let t: Awaited<ReturnType<typeof tenant>>
  beforeAll(async () => {
    // The operator's own service on loopback stays usable: it is configured, not chosen by a tenant.
    h = await createHarness({ OPENAI_BASE_URL: fake.url })
    t = await tenant(h)
  })
  afterAll(() => h.close())

  test('a base URL whose host is a loopback, private, link-local, metadata or mapped address is refused with 400 base_url_not_allowed', async () => {
    const port = new URL(fake.url).port
    const refused = [
      fake.url,
      `http://127.0.0.1:${port}/v1`,
      'http://169.254.169.254/',
      'http://[::1]/',
      'http://10.0.0.1/',
      'http://192.168.1.20:11434/v1',
      'http://100.64.0.1/',
      'http://[fd00:ec2::254]/',
      'http://[fe80::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:169.254.169.254]/latest',
      'http://0x7f.1/',
      'http://2130706433/',
      'http://0.0.0.0/',
    ]
    for (const baseUrl of refused) {
      const res = await t.create(baseUrl)
      expect(res.status, baseUrl).toBe(400)
      expect(res.body.error.code, baseUrl).toBe('base_url_not_allowed')
      expect(res.body.error.message, baseUrl).toStartWith('baseUrl must point at a public address')
    }
    const list = await h.call('GET', '/persona/services', t.admin)
    expect(list.body.total).toBe(0)
  })

  test('changing the base URL to such an address is refused the same way; the service keeps its URL', async () => {
    const created = await t.create('https://llm.example.com/v1')
    expect(created.status).toBe(201)
    const res = await h.call('PATCH', `/persona/services/${created.body.id}`, { ...t.admin, body: { baseUrl: 'http://169.254.169.254/latest/meta-data' } })
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('base_url_not_allowed')
    expect((await h.call('GET', `/persona/services/${created.body.id}`, t.admin)).body.baseUrl).toBe('https://llm.example.com/v1')
  })

  test('a host name resolving to loopback is refused at creation, with 400 base_url_not_allowed', async () => {
    const res = await t.create(`http://localhost:${new URL(fake.url).port}/v1`)
    expect(res.status).toBe(400)
    expect(res.body.error).toEqual({
      code: 'base_url_not_allowed',
      message: 'baseUrl must point at a public address; localhost resolves to an address that is not one',
    })
  })

  /** A service whose stored host resolves to loopback (saved before the check, or a name that moved since). */
  async function storedOnLoopback() {
    const created = await t.create('https://llm.example.com/v1')
    expect(created.status).toBe(201)
    await h.db.execute(sql`update persona.services set base_url = ${`http://localhost:${new URL(fake.url).port}/v1`} where id = ${created.body.id}`)
    return created
  }

  test('a stored host name resolving to loopback is refused at connect, before any request, with the reason in connectError', async () => {
    const created = await storedOnLoopback()
    const before = fake.requests.length
    const res = await t.connect(created.body.id)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ connectStatus: 'failed', connectError: PRIVATE_REFUSAL, models: [], lastConnectedAt: null })
    expect(fake.requests.length).toBe(before)
  })

  test('a chat turn on such a service ends with an error event naming the reason; nothing reaches the host', async () => {
    const created = await storedOnLoopback()
    const before = fake.requests.length
    const { status, events } = await chatThrough(h, t, created.body.id)
    expect(status).toBe(200)
    expect(events.at(-1)).toEqual({ event: 'error', data: { message: PRIVATE_REFUSAL } })
    expect(fake.requests.length).toBe(before)
  })

  test('a service stored with a forbidden address (before this check existed) is refused at request time too', async () => {
    const created = await t.create('https://llm.example.com/v1')
    await h.db.execute(sql`update persona.services set base_url = 'http://169.254.169.254/v1' where id = ${created.body.id}`)
    const res = await t.connect(created.body.id)
    expect(res.body).toMatchObject({ connectStatus: 'failed', connectError: METADATA_REFUSAL })
  })

  test("conversations without a persona service use the operator's OPENAI_BASE_URL, on loopback, unchecked", async () => {
    const c = await newConversation(h, t.actor, { model: 'fake-echo' })
    const before = fake.requests.length
    const { events } = await send(h, t.actor, c.id, { message: 'operator service' })
    expect(replyText(events)).toBe('You said: operator service')
    expect(fake.requests.slice(before).map((r) => r.path)).toEqual(['/v1/chat/completions'])
  })
})

describe('PERSONA_SERVICE_PRIVATE_ADDRESSES=allow', () => {
  let h: Harness
  let t: Awaited<ReturnType<typeof tenant>>
  let target: FakeOpenAi
  let redirects: string[]
  let redirector: ReturnType<typeof Bun.serve>
  beforeAll(async () => {
    h = await createHarness({ PERSONA_SERVICE_PRIVATE_ADDRESSES: 'allow' })
    t = await tenant(h)
    target = startFakeOpenAi()
    redirects = []
    // A service that sends every request on to another (here: the second fake service).
    redirector = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch(req) {
        const path = new URL(req.url).pathname
        redirects.push(path)
        return new Response(null, { status: 302, headers: { location: `${target.url}${path.replace(/^\/v1/, '')}` } })
      },
    })
  })
  afterAll(async () => {
    await h.close()
    await target.stop()
    await redirector.stop(true)
  })

  test('loopback and host names resolving to it work', async () => {
    for (const baseUrl of [target.url, `http://localhost:${new URL(target.url).port}/v1`]) {
      const created = await t.create(baseUrl)
      expect(created.status, baseUrl).toBe(201)
      const res = await t.connect(created.body.id)
      expect(res.body, baseUrl).toMatchObject({ connectStatus: 'connected', connectError: null })
    }
    expect(target.requests.map((r) => r.path)).toEqual(['/v1/models', '/v1/models'])
  })

  test('link-local and cloud-metadata addresses are still refused', async () => {
    for (const baseUrl of [
      'http://169.254.169.254/',
      'http://[fd00:ec2::254]/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://[fe80::1]/',
      'http://100.100.100.200/',
      'http://0.0.0.0:8080/',
    ]) {
      const res = await t.create(baseUrl)
      expect(res.status, baseUrl).toBe(400)
      expect(res.body.error.code, baseUrl).toBe('base_url_not_allowed')
    }
    const created = await t.create('https://llm.example.com/v1')
    await h.db.execute(sql`update persona.services set base_url = 'http://169.254.169.254/v1' where id = ${created.body.id}`)
    expect((await t.connect(created.body.id)).body).toMatchObject({ connectStatus: 'failed', connectError: METADATA_REFUSAL })
  })

  test('a redirect is not followed: connect fails and the service redirected to receives nothing', async () => {
    const created = await t.create(`http://127.0.0.1:${redirector.port}/v1`)
    const before = target.requests.length
    const res = await t.connect(created.body.id)
    expect(res.body).toMatchObject({
      connectStatus: 'failed',
      connectError: 'Refused to follow the redirect (302) the service answered: use its final address',
    })
    expect(redirects).toEqual(['/v1/models'])
    expect(target.requests.length).toBe(before)
  })

  test('a chat turn on a redirecting service ends with an error event; the service redirected to receives nothing', async () => {
    const created = await t.create(`http://127.0.0.1:${redirector.port}/v1`)
    const before = target.requests.length
    const { events } = await chatThrough(h, t, created.body.id)
    expect(events.at(-1)).toEqual({ event: 'error', data: { message: 'Refused to follow the redirect (302) the service answered: use its final address' } })
    expect(redirects.at(-1)).toBe('/v1/chat/completions')
    expect(target.requests.length).toBe(before)
  })
})
