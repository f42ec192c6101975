import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chatActor, type ChatActor, newConversation, replyText, send } from '../chat/support'
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai'
import { createHarness, type Harness } from '../support/harness'
import { addMember, provision } from '../support/tenancy'

let fake: FakeOpenAi
let h: Harness
let a: ChatActor
let admin: { token: string; headers: Record<string, string> }
beforeAll(async () => {
  fake = startFakeOpenAi({ apiKey: 'sk-persona-service' })
  // The fake service listens on 127.0.0.1.
  h = await createHarness({ PERSONA_SERVICE_PRIVATE_ADDRESSES: 'allow' })
  a = await chatActor(h)
  admin = a.org.as(a.owner)
})
afterAll(async () => {
  await h.close()
  await fake.stop()
})

const createPersona = (body: object, creds = admin) => h.call('POST', '/persona/personas', { ...creds, body })

describe('personas', () => {
  test('create, read, update, delete', async () => {
    const created = await createPersona({ slug: 'ada', name: 'Ada', modelPrompt: 'You are Ada.', character: 'Curious' })
    expect(created.status).toBe(201)
    expect(created.body).toEqual({
      id: expect.any(String),
      slug: 'ada',
      name: 'Ada',
      description: null,
      modelPrompt: 'You are Ada.',
      voice: null,
      character: 'Curious',
      examples: null,
      visibility: 'private',
      serviceId: null,
      model: null,
      searchCommunity: false,
      createdBy: a.owner.user.id,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    })
    const id = created.body.id
    const patched = await h.call('PATCH', `/persona/personas/${id}`, { ...admin, body: { visibility: 'public', character: null } })
    expect(patched.body).toMatchObject({ visibility: 'public', character: null, name: 'Ada' })
    expect((await h.call('GET', `/persona/personas/${id}`, admin)).body.visibility).toBe('public')
    expect((await h.call('DELETE', `/persona/personas/${id}`, admin)).status).toBe(204)
    expect((await h.call('GET', `/persona/personas/${id}`, admin)).status).toBe(404)
  })

  test('slugs are unique per ecosystem, not across ecosystems', async () => {
    expect((await createPersona({ slug: 'twin', name: 'Twin' })).status).toBe(201)
    const again = await createPersona({ slug: 'twin', name: 'Twin 2' })
    expect(again.status).toBe(409)
    expect(again.body.error.code).toBe('slug_taken')
    const other = await provision(h, a.owner)
    expect((await createPersona({ slug: 'twin', name: 'Twin' }, other.as(a.owner))).status).toBe(201)
    const p = await createPersona({ slug: 'not-twin', name: 'x' })
    const rename = await h.call('PATCH', `/persona/personas/${p.body.id}`, { ...admin, body: { slug: 'twin' } })
    expect(rename.status).toBe(409)
  })

  test('a serviceId must name a service of the same ecosystem', async () => {
    const other = await provision(h, a.owner)
    const foreign = await h.call('POST', '/persona/services', { ...other.as(a.owner), body: { templateId: 'ollama' } })
    const res = await createPersona({ slug: 'foreign', name: 'F', serviceId: foreign.body.id })
    expect(res.status).toBe(404)
    expect(res.body.error.code).toBe('service_not_found')
    const bad = await createPersona({ slug: 'Bad Slug', name: 'x' })
    expect(bad.status).toBe(400)
  })

  test('members read personas; only admins write them', async () => {
    const member = await h.register()
    await addMember(h, a.org, a.owner, member, 'member')
    const creds = a.org.as(member)
    const list = await h.call('GET', '/persona/personas', creds)
    expect(list.status).toBe(200)
    expect(list.body.total).toBeGreaterThan(0)
    expect((await createPersona({ slug: 'by-member', name: 'x' }, creds)).status).toBe(403)
    expect((await h.call('GET', '/persona/personas', { token: a.customer.token })).status).toBe(403)
  })
})

describe('chatting with a persona', () => {
  test("the persona's prompt, service (with its key) and model are used", async () => {
    const service = await h.call('POST', '/persona/services', { ...admin, body: { baseUrl: fake.url, apiKey: 'sk-persona-service' } })
    await createPersona({
      slug: 'poet',
      name: 'Poet',
      modelPrompt: 'You answer in verse.',
      voice: 'Soft',
      examples: 'Q: hi\nA: hello, in rhyme',
      serviceId: service.body.id,
      model: 'fake-echo',
    })
    const c = await newConversation(h, a, { personaSlug: 'poet' })
    expect(c).toMatchObject({ personaSlug: 'poet', model: 'fake-echo' })
    const before = fake.requests.length
    const { events } = await send(h, a, c.id, { message: 'a poem please' })
    expect(replyText(events)).toBe('You said: a poem please')
    const upstream = fake.requests.slice(before)
    expect(upstream).toHaveLength(1)
    expect(upstream[0]!.authorization).toBe('Bearer sk-persona-service')
    expect(upstream[0]!.body.model).toBe('fake-echo')
    expect(upstream[0]!.body.messages).toEqual([
      { role: 'system', content: 'You answer in verse.\n\nVoice: Soft\n\nExamples:\nQ: hi\nA: hello, in rhyme' },
      { role: 'user', content: 'a poem please' },
    ])
  })

  test('a persona without a service uses the default service (here the dev model); the conversation may pick its model', async () => {
    await createPersona({ slug: 'plain', name: 'Plain', modelPrompt: 'Be plain.' })
    const c = await newConversation(h, a, { personaSlug: 'plain' })
    expect(c.model).toBe('dev')
    const { events } = await send(h, a, c.id, { message: 'hi' })
    expect(replyText(events)).toContain('You said: hi')
  })

  test('an unknown persona is refused at creation; a deleted one stops the conversation with 409', async () => {
    const unknown = await h.call('POST', '/chat/conversations', { ...a.auth, body: { personaSlug: 'nobody' } })
    expect(unknown.status).toBe(404)
    expect(unknown.body.error.code).toBe('persona_not_found')
    const p = await createPersona({ slug: 'ephemeral', name: 'E' })
    const c = await newConversation(h, a, { personaSlug: 'ephemeral' })
    await h.call('DELETE', `/persona/personas/${p.body.id}`, admin)
    const res = await send(h, a, c.id, { message: 'still there?' })
    expect(res.status).toBe(409)
    expect(res.json.error.code).toBe('persona_unavailable')
    // Nothing of the refused send is stored.
    expect((await h.call('GET', `/chat/conversations/${c.id}`, a.auth)).body.messages).toEqual([])
  })

  test('a persona of another ecosystem cannot be named', async () => {
    const other = await provision(h, a.owner)
    await createPersona({ slug: 'elsewhere', name: 'E' }, other.as(a.owner))
    const res = await h.call('POST', '/chat/conversations', { ...a.auth, body: { personaSlug: 'elsewhere' } })
    expect(res.status).toBe(404)
  })
})
