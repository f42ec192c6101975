import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { CHAT_SEARCH_CANDIDATES, CHAT_SEARCH_SCAN_MESSAGES } from '../../src/modules/chat/search'
import { chatActor, type ChatActor, newConversation, send } from '../chat/support'
import { createHarness, type Harness } from '../support/harness'
import { addMember } from '../support/tenancy'

let h: Harness
let a: ChatActor
let lisbon: { id: string }
let cooking: { id: string }
beforeAll(async () => {
  h = await createHarness()
  a = await chatActor(h)
  lisbon = await newConversation(h, a, { title: 'Trip to Lisbon' })
  await send(h, a, lisbon.id, { message: 'Which trams go up to the castle in Lisbon?' })
  await send(h, a, lisbon.id, { message: 'Book a table for grilled sardines near the river' })
  cooking = await newConversation(h, a, { title: 'Cooking' })
  await send(h, a, cooking.id, { message: 'My grandmother made pasta carbonara recipes every Sunday' })
  await send(h, a, cooking.id, { message: 'Pasta with tomatoes, basil, olive oil, garlic, parmesan and finally a recipe card' })
})
afterAll(() => h.close())

const search = (q: string, actor: { token: string; headers?: Record<string, string> } = a.auth, extra = '') =>
  h.call('GET', `/search/chat/messages?q=${encodeURIComponent(q)}${extra}`, actor)

describe('GET /search/chat/messages', () => {
  test("finds the caller's user and assistant messages, with the conversation and a plain excerpt", async () => {
    const res = await search('sardines')
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ total: 2, page: 1, pageSize: 20 })
    expect(res.body.items.map((i: any) => i.role).sort()).toEqual(['assistant', 'user'])
    for (const item of res.body.items) {
      expect(item).toEqual({
        messageId: expect.any(String),
        conversationId: lisbon.id,
        conversationTitle: 'Trip to Lisbon',
        role: expect.any(String),
        snippet: expect.stringContaining('grilled sardines near the river'),
        createdAt: expect.any(String),
        rank: expect.any(Number),
      })
      expect(item.snippet).not.toMatch(/<\/?b>/)
    }
    const detail = await h.call('GET', `/chat/conversations/${lisbon.id}`, a.auth)
    const ids = detail.body.messages.filter((m: any) => m.content.includes('sardines')).map((m: any) => m.id)
    expect(res.body.items.map((i: any) => i.messageId).sort()).toEqual(ids.sort())
  })

  test('words match as prefixes, case-insensitively, and every word must occur', async () => {
    const byPrefix = await search('RECIPE')
    expect(byPrefix.body.total).toBe(4)
    expect(new Set(byPrefix.body.items.map((i: any) => i.conversationId))).toEqual(new Set([cooking.id]))
    expect((await search('tram castl')).body.total).toBe(2)
    expect((await search('tram carbonara')).body.total).toBe(0)
    expect((await search('submarine')).body).toEqual({ items: [], total: 0, page: 1, pageSize: 20 })
  })

  test('closer words rank higher; results come best first', async () => {
    const res = await search('pasta recipe')
    expect(res.body.total).toBe(4)
    const ranks = res.body.items.map((i: any) => i.rank)
    expect(ranks).toEqual([...ranks].sort((x: number, y: number) => y - x))
    expect(res.body.items[0].snippet).toContain('carbonara recipes')
    expect(res.body.items.at(-1).snippet).toContain('recipe card')
  })

  test('pages through the matches', async () => {
    const first = await search('recipe', a.auth, '&pageSize=3')
    const second = await search('recipe', a.auth, '&pageSize=3&page=2')
    expect(first.body).toMatchObject({ total: 4, page: 1, pageSize: 3 })
    expect(first.body.items).toHaveLength(3)
    expect(second.body.items).toHaveLength(1)
    const all = [...first.body.items, ...second.body.items].map((i: any) => i.messageId)
    expect(new Set(all).size).toBe(4)
  })

  test(`when more than ${CHAT_SEARCH_CANDIDATES} messages match, the newest ${CHAT_SEARCH_CANDIDATES} are ranked and counted`, async () => {
    const b = await chatActor(h, a)
    const c = await newConversation(h, b, { title: 'Walruses' })
    const write = (from: number, to: number) =>
      h.db.execute(sql`
        insert into chat.messages (conversation_id, owner_id, customer_id, role, content, created_at)
        select ${c.id}, ${b.org.ecosystem.id}, ${b.customer.customerId}, 'user',
               case when g = 0 then 'walrus walrus walrus' else 'a longer message that names the walrus once among other words, number ' || g end,
               timestamptz '2026-01-01 00:00:00+00' + g * interval '1 minute'
        from generate_series(${from}::int, ${to}::int) g`)
    await write(0, 1)
    const few = await search('walrus', b.auth)
    expect(few.body.total).toBe(2)
    expect(few.body.items[0].snippet).toBe('walrus walrus walrus')
    // More messages than are read one by one: the search goes through the full-text index.
    await write(2, Math.max(CHAT_SEARCH_CANDIDATES, CHAT_SEARCH_SCAN_MESSAGES) + 1)
    const many = await search('walrus', b.auth)
    expect(many.body.total).toBe(CHAT_SEARCH_CANDIDATES)
    expect(many.body.items).toHaveLength(20)
    expect(many.body.items.map((i: any) => i.snippet)).not.toContain('walrus walrus walrus')
    const last = CHAT_SEARCH_CANDIDATES / 20
    expect((await search('walrus', b.auth, `&page=${last}`)).body.items).toHaveLength(20)
    expect((await search('walrus', b.auth, `&page=${last + 1}`)).body).toEqual({ items: [], total: CHAT_SEARCH_CANDIDATES, page: last + 1, pageSize: 20 })
    const one = await search('WALR 1999', b.auth)
    expect(one.body.total).toBe(1)
    expect(one.body.items[0].snippet).toContain('number 1999')
  })

  test('tool results are not searched', async () => {
    const c = await newConversation(h, a, { title: 'Clock' })
    const turn = await send(h, a, c.id, { message: 'current_time {"timezone":"UTC"}' })
    expect(turn.events.map((e) => e.event)).toContain('tool_call_completed')
    const detail = await h.call('GET', `/chat/conversations/${c.id}`, a.auth)
    expect(detail.body.messages.filter((m: any) => m.content.includes('UTC')).map((m: any) => m.role)).toEqual(['user', 'tool', 'assistant'])
    const res = await search('utc')
    expect(res.body.items.map((i: any) => i.role).sort()).toEqual(['assistant', 'user'])
  })

  test('an edited message is found by its new text only; a deleted conversation is gone', async () => {
    const c = await newConversation(h, a, { title: 'Edits' })
    await send(h, a, c.id, { message: 'zeppelin timetable' })
    const detail = await h.call('GET', `/chat/conversations/${c.id}`, a.auth)
    const user = detail.body.messages.find((m: any) => m.role === 'user')
    expect((await h.call('PATCH', `/chat/conversations/${c.id}/messages/${user.id}`, { ...a.auth, body: { content: 'hovercraft timetable' } })).status).toBe(
      200,
    )
    expect((await search('zeppelin')).body.total).toBe(0)
    expect((await search('hovercraft')).body.items.map((i: any) => i.messageId)).toEqual([user.id])
    expect((await h.call('DELETE', `/chat/conversations/${c.id}`, a.auth)).status).toBe(204)
    expect((await search('timetable')).body.total).toBe(0)
  })

  test('operators, quotes and backslashes are plain text, never an error', async () => {
    for (const q of [
      "'",
      "''",
      '\\',
      'a\\',
      "o'brien",
      '!',
      '&|!():*<->',
      'pasta & !recipe',
      'recipe:*',
      '"pasta',
      '(((',
      'sardines | castle',
      '💥',
      '東京',
      ' ',
    ]) {
      const res = await search(q)
      expect(res.status, q).toBe(200)
    }
    expect((await search('pasta & !recipe')).body.total).toBe(4)
    expect((await search('&|!')).body.total).toBe(0)
  })

  test('a missing, empty or over-long query is a 400 naming q', async () => {
    for (const extra of ['', 'q=', `q=${'x'.repeat(201)}`]) {
      const res = await h.call('GET', `/search/chat/messages?${extra}`, a.auth)
      expect(res.status, extra).toBe(400)
      expect(res.body.error.code).toBe('validation_failed')
      expect(res.body.error.message).toContain('q')
    }
  })

  test("other customers of the ecosystem, and team members acting as themselves, see none of the caller's messages", async () => {
    const other = await chatActor(h, a)
    expect((await search('sardines', other.auth)).body.total).toBe(0)
    const member = await h.register()
    await addMember(h, a.org, a.owner, member, 'admin')
    const asMember = { token: member.token, headers: { 'x-ecosystem-id': a.org.ecosystem.id } }
    expect((await search('sardines', asMember)).body.total).toBe(0)
    const mine = await h.call('POST', '/chat/conversations', { ...asMember, body: {} })
    await h.call('POST', `/chat/conversations/${mine.body.id}/messages`, { ...asMember, body: { message: 'sardines for the team' } })
    expect((await search('sardines', asMember)).body.total).toBe(2)
    expect((await search('sardines')).body.total).toBe(2)
  })

  test('needs credentials', async () => {
    expect((await h.call('GET', '/search/chat/messages?q=sardines')).status).toBe(401)
  })
})

describe('the chat `search` tool', () => {
  test("finds excerpts of the customer's other conversations, not the current one", async () => {
    const c = await newConversation(h, a, { title: 'Planning' })
    const turn = await send(h, a, c.id, { message: 'search {"query":"sardines"}' })
    const completed = turn.events.find((e) => e.event === 'tool_call_completed')!.data as { name: string; ok: boolean; result: string }
    expect(completed).toMatchObject({ name: 'search', ok: true })
    const { results } = JSON.parse(completed.result) as { results: any[] }
    expect(results).toHaveLength(2)
    for (const r of results)
      expect(r).toEqual({
        conversationId: lisbon.id,
        conversationTitle: 'Trip to Lisbon',
        role: expect.any(String),
        snippet: expect.stringContaining('sardines'),
        createdAt: expect.any(String),
      })
    const detail = await h.call('GET', `/chat/conversations/${c.id}`, a.auth)
    expect(detail.body.messages.filter((m: any) => m.content.includes('sardines')).length).toBeGreaterThan(1)
    const again = await send(h, a, c.id, { message: 'search {"query":"sardines"}' })
    const own = JSON.parse((again.events.find((e) => e.event === 'tool_call_completed')!.data as { result: string }).result) as { results: any[] }
    expect(own.results.map((r) => r.conversationId)).toEqual([lisbon.id, lisbon.id])
  })

  test('another customer’s search finds nothing of this customer', async () => {
    const other = await chatActor(h, a)
    const c = await newConversation(h, other)
    const turn = await send(h, other, c.id, { message: 'search {"query":"sardines"}' })
    const completed = turn.events.find((e) => e.event === 'tool_call_completed')!.data as { ok: boolean; result: string }
    expect(completed.ok).toBe(true)
    expect(JSON.parse(completed.result)).toEqual({ results: [] })
  })

  test('bad arguments are reported to the model, not run', async () => {
    const c = await newConversation(h, a)
    const turn = await send(h, a, c.id, { message: 'search {"query":"", "limit": 99}' })
    const completed = turn.events.find((e) => e.event === 'tool_call_completed')!.data as { ok: boolean; result: string }
    expect(completed.ok).toBe(false)
    expect(JSON.parse(completed.result).error).toStartWith('Invalid arguments')
  })
})
