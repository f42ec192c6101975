import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHarness, type Harness } from '../support/harness'
import { addMember } from '../support/tenancy'
import { chatActor, type ChatActor, newConversation, send } from './support'

let h: Harness
let a: ChatActor
beforeAll(async () => {
  h = await createHarness()
  a = await chatActor(h)
})
afterAll(() => h.close())

describe('conversations', () => {
  test('create with defaults: titled, on the dev model (nothing configured), no persona', async () => {
    const res = await h.call('POST', '/chat/conversations', a.auth)
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      id: expect.any(String),
      title: 'New conversation',
      model: 'dev',
      personaSlug: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    })
  })

  test('create with a title and a model; read it back with its messages', async () => {
    const created = await newConversation(h, a, { title: 'Trip to Lisbon', model: 'dev' })
    expect(created.title).toBe('Trip to Lisbon')
    await send(h, a, created.id, { message: 'hello' })
    const detail = await h.call('GET', `/chat/conversations/${created.id}`, a.auth)
    expect(detail.status).toBe(200)
    expect(detail.body.conversation).toMatchObject({ id: created.id, title: 'Trip to Lisbon', model: 'dev' })
    expect(detail.body.messages.map((m: any) => [m.role, m.status, m.toolName])).toEqual([
      ['user', 'complete', null],
      ['assistant', 'complete', null],
    ])
    expect(detail.body.messages[0].content).toBe('hello')
    expect(detail.body.messages[1].content).toContain('You said: hello')
  })

  test('list is paged, newest first, and only the caller’s own', async () => {
    const b = await chatActor(h, a)
    const ids = []
    for (const title of ['one', 'two', 'three']) ids.push((await newConversation(h, b, { title })).id)
    const page1 = await h.call('GET', '/chat/conversations?pageSize=2', b.auth)
    expect(page1.status).toBe(200)
    expect(page1.body).toMatchObject({ total: 3, page: 1, pageSize: 2 })
    expect(page1.body.items.map((c: any) => c.title)).toEqual(['three', 'two'])
    const page2 = await h.call('GET', '/chat/conversations?pageSize=2&page=2', b.auth)
    expect(page2.body.items.map((c: any) => c.title)).toEqual(['one'])
    // The first customer of the same ecosystem sees none of them.
    const mine = await h.call('GET', '/chat/conversations?pageSize=100', a.auth)
    expect(mine.body.items.map((c: any) => c.id)).not.toContainAnyValues(ids)
    expect((await h.call('GET', `/chat/conversations/${ids[0]}`, a.auth)).status).toBe(404)
  })

  test('rename and delete', async () => {
    const c = await newConversation(h, a)
    const renamed = await h.call('PATCH', `/chat/conversations/${c.id}`, { ...a.auth, body: { title: 'Renamed' } })
    expect(renamed.status).toBe(200)
    expect(renamed.body.title).toBe('Renamed')
    expect((await h.call('DELETE', `/chat/conversations/${c.id}`, a.auth)).status).toBe(204)
    expect((await h.call('GET', `/chat/conversations/${c.id}`, a.auth)).status).toBe(404)
    expect((await h.call('DELETE', `/chat/conversations/${c.id}`, a.auth)).status).toBe(404)
  })

  test('updatedAt moves with what changes the conversation: a stored reply, an edit, a rename', async () => {
    const c = await newConversation(h, a)
    const updatedAt = async () => Date.parse((await h.call('GET', `/chat/conversations/${c.id}`, a.auth)).body.conversation.updatedAt)
    const created = await updatedAt()
    h.advanceClock(60_000)
    const { events } = await send(h, a, c.id, { message: 'hello' })
    const userId = (events[0]!.data as { userMessageId: string }).userMessageId
    const replied = await updatedAt()
    expect(replied).toBeGreaterThanOrEqual(created + 60_000)
    h.advanceClock(60_000)
    expect((await h.call('PATCH', `/chat/conversations/${c.id}/messages/${userId}`, { ...a.auth, body: { content: 'hello again' } })).status).toBe(200)
    const edited = await updatedAt()
    expect(edited).toBeGreaterThanOrEqual(replied + 60_000)
    h.advanceClock(60_000)
    expect((await h.call('PATCH', `/chat/conversations/${c.id}`, { ...a.auth, body: { title: 'Renamed' } })).status).toBe(200)
    expect(await updatedAt()).toBeGreaterThanOrEqual(edited + 60_000)
  })

  test('limits of spec section 8 and malformed ids are 400s', async () => {
    const c = await newConversation(h, a)
    const cases: [string, string, unknown][] = [
      ['POST', '/chat/conversations', { title: 'x'.repeat(201) }],
      ['PATCH', `/chat/conversations/${c.id}`, { title: '' }],
      ['PATCH', `/chat/conversations/${c.id}`, { title: 'x'.repeat(201) }],
      ['PATCH', `/chat/conversations/${c.id}`, {}],
      ['POST', `/chat/conversations/${c.id}/messages`, { message: '' }],
      ['POST', `/chat/conversations/${c.id}/messages`, {}],
      ['GET', '/chat/conversations/not-a-uuid', undefined],
      ['POST', '/chat/conversations/not-a-uuid/messages', { message: 'hi' }],
    ]
    for (const [method, path, body] of cases) {
      const res = await h.call(method, path, { ...a.auth, body })
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400)
      expect(res.body.error.code).toBe('validation_failed')
    }
    expect((await newConversation(h, a, { title: 'x'.repeat(200) })).title).toHaveLength(200)
  })

  test('an account member acting in the ecosystem chats as its own customer record', async () => {
    const member = await h.register()
    await addMember(h, a.org, a.owner, member, 'member')
    const as = a.org.as(member)
    const created = await h.call('POST', '/chat/conversations', { ...as, body: { title: 'staff' } })
    expect(created.status).toBe(201)
    const list = await h.call('GET', '/chat/conversations', as)
    expect(list.body.items.map((c: any) => c.id)).toEqual([created.body.id])
    // Not the customer's conversation, and without X-Ecosystem-Id an account has no ecosystem.
    expect((await h.call('GET', `/chat/conversations/${created.body.id}`, a.auth)).status).toBe(404)
    expect((await h.call('GET', '/chat/conversations', { token: member.token })).status).toBe(400)
  })

  test('without credentials: 401', async () => {
    expect((await h.call('GET', '/chat/conversations')).status).toBe(401)
    expect((await h.call('POST', '/chat/conversations', { body: {} })).status).toBe(401)
  })
})
