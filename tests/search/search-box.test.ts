import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { SEARCH_BOX_CANDIDATES } from '../../src/modules/search/service'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { customerOf, provision, type Provisioned } from '../support/tenancy'

let h: Harness
let owner: RegisteredUser
let org: Provisioned
let ada: { token: string; customerId: string }
let bob: { token: string; customerId: string }
const ids: Record<string, string> = {}
beforeAll(async () => {
  h = await createHarness()
  owner = await h.register()
  org = await provision(h, owner)
  ada = await customerOf(h, org, owner)
  bob = await customerOf(h, org, owner)
  const thread = async (key: string, title: string, body: string) => {
    ids[key] = (await h.call('POST', '/community/threads', { token: ada.token, body: { title, body } })).body.id
  }
  await thread('running', 'Running shoes', 'Which shoes for trail running in the rain?')
  await thread('swim', 'Swimming', 'Open water swimming, cold and dark')
  await thread('cats', 'Cats and dogs', 'Living with cats and a dog')
  await thread('dogs', 'Dog food', 'Which food for a young dog?')
  await thread('phrase', 'Word order', 'the dark cold sea, not the cold dark')
  ids.reply = (
    await h.call('POST', '/community/replies', { token: bob.token, body: { threadId: ids.running!, body: 'I run in trail runners every morning' } })
  ).body.id
  const doc = (await h.call('POST', '/data/documents', { token: ada.token, body: { title: 'Handbook' } })).body.id
  ids.doc = doc
  await h.call('POST', '/data/document_blocks', {
    token: ada.token,
    body: {
      documentId: doc,
      blockType: 'paragraph',
      position: 'a0',
      content: 'Our <b>onboarding</b> checklist: laptop, badge, & a warm welcome for every new colleague.',
    },
  })
  await h.call('POST', '/userdata/notes', { token: ada.token, body: { title: 'Groceries', body: 'apples, bananas, oat milk' } })
  await h.call('POST', '/userdata/notes', { token: bob.token, body: { title: 'Groceries too', body: 'apples and pears' } })
})
afterAll(() => h.close())

const find = async (what: string, q: string, token = ada.token) => (await h.call('GET', `/search/${what}?q=${encodeURIComponent(q)}`, { token })).body
const threadIds = async (q: string, extra = '') =>
  (await h.call('GET', `/search/threads?q=${encodeURIComponent(q)}${extra}`, { token: bob.token })).body.items.map((i: { id: string }) => i.id)

describe('search-box syntax', () => {
  test('all words must occur; the last word is a prefix while typing', async () => {
    expect(await threadIds('shoes rain')).toEqual([ids.running])
    expect(await threadIds('swimm')).toEqual([ids.swim])
    expect(await threadIds('shoes snow')).toEqual([])
  })

  test('English stems: running finds run; language=simple only as written', async () => {
    const replies = (await find('replies', 'running')).items.map((i: { id: string }) => i.id)
    expect(replies).toEqual([ids.reply])
    expect((await h.call('GET', `/search/replies?q=running&language=simple`, { token: ada.token })).body.total).toBe(0)
  })

  test('an ecosystem can make simple its default; a request still chooses; only admins change it', async () => {
    expect((await h.call('GET', '/search/settings', { token: ada.token })).body).toEqual({ language: 'english' })
    expect((await h.call('PUT', '/search/settings', { token: ada.token, body: { language: 'simple' } })).status).toBe(403)
    expect((await h.call('PUT', '/search/settings', { ...org.as(owner), body: { language: 'klingon' } })).status).toBe(400)
    expect((await h.call('PUT', '/search/settings', { ...org.as(owner), body: { language: 'simple' } })).body).toEqual({ language: 'simple' })
    try {
      expect((await h.call('GET', '/search/settings', { token: bob.token })).body).toEqual({ language: 'simple' })
      expect((await find('replies', 'running')).total).toBe(0)
      expect((await h.call('GET', `/search/replies?q=running&language=english`, { token: ada.token })).body.total).toBe(1)
      const stranger = await h.register()
      const elsewhere = await provision(h, stranger)
      expect((await h.call('GET', '/search/settings', elsewhere.as(stranger))).body).toEqual({ language: 'english' })
    } finally {
      await h.call('PUT', '/search/settings', { ...org.as(owner), body: { language: 'english' } })
    }
  })

  test('"quoted phrases" keep word order; OR widens; -word excludes', async () => {
    expect((await threadIds('dark cold')).sort()).toEqual([ids.phrase, ids.swim].sort())
    expect(await threadIds('"dark cold"')).toEqual([ids.phrase])
    expect(await threadIds('"water open"')).toEqual([])
    expect(await threadIds('"open water"')).toEqual([ids.swim])
    expect((await threadIds('cats OR food')).sort()).toEqual([ids.cats, ids.dogs].sort())
    expect(await threadIds('dog -cats')).toEqual([ids.dogs])
  })

  test('bad syntax never errors: it degrades to plain words', async () => {
    for (const q of ['"unclosed dog', 'OR', '-', '((dog', 'dog OR', '&|!:*', "'"]) {
      const res = await h.call('GET', `/search/threads?q=${encodeURIComponent(q)}`, { token: bob.token })
      expect(res.status, q).toBe(200)
    }
    // An unclosed quote is plain words: as a phrase, "food dog" would match nothing.
    expect(await threadIds('"food dog')).toEqual([ids.dogs])
  })

  test('ranking: more of the words, closer together, ranks higher', async () => {
    const items = (await h.call('GET', '/search/threads?q=dog', { token: bob.token })).body.items as { id: string; rank: number }[]
    expect(items.length).toBe(2)
    expect(items[0]!.rank).toBeGreaterThanOrEqual(items[1]!.rank)
    expect(items[0]!.id).toBe(ids.dogs)
  })
})

describe('results', () => {
  test('threads and replies have the spec fields; deleted ones vanish', async () => {
    const t = (await find('threads', 'swimming')).items[0]
    expect(t).toEqual({
      id: ids.swim,
      title: 'Swimming',
      body: 'Open water swimming, cold and dark',
      authorId: ada.customerId,
      categoryId: expect.any(String),
      createdAt: expect.stringMatching(/Z$/),
      rank: expect.any(Number),
    })
    const r = (await find('replies', 'morning')).items[0]
    expect(r).toEqual({
      id: ids.reply,
      threadId: ids.running,
      body: 'I run in trail runners every morning',
      authorId: bob.customerId,
      createdAt: expect.stringMatching(/Z$/),
      rank: expect.any(Number),
    })
    await h.call('DELETE', `/community/threads/${ids.running}`, { token: ada.token })
    expect((await find('threads', 'shoes')).total).toBe(0)
    expect((await find('replies', 'morning')).total).toBe(0)
  })

  test('documents answer per block with a plain-text snippet; only the caller’s own', async () => {
    const res = await find('documents', 'onboarding checklist')
    expect(res.total).toBe(1)
    expect(res.items[0]).toEqual({
      blockId: expect.any(String),
      documentId: ids.doc,
      blockType: 'paragraph',
      position: 'a0',
      snippet: expect.any(String),
      rank: expect.any(Number),
    })
    expect(res.items[0].snippet).toContain('onboarding checklist')
    expect(res.items[0].snippet).not.toMatch(/<b>|<\/b>/)
    expect((await find('documents', 'onboarding', bob.token)).total).toBe(0)
  })

  test('notes are the caller’s own', async () => {
    const mine = await find('notes', 'apples')
    expect(mine.items.map((n: { title: string }) => n.title)).toEqual(['Groceries'])
    expect(mine.items[0]).toMatchObject({ customerId: ada.customerId, ownerId: org.ecosystem.id, body: 'apples, bananas, oat milk', rank: expect.any(Number) })
    expect((await find('notes', 'apples', bob.token)).items.map((n: { title: string }) => n.title)).toEqual(['Groceries too'])
  })

  test(`past ${SEARCH_BOX_CANDIDATES} matches the newest ${SEARCH_BOX_CANDIDATES} are ranked and counted`, async () => {
    await h.db.execute(sql`insert into userdata.notes (owner_id, customer_id, title, body, created_at, occurred_at)
      select ${org.ecosystem.id}::uuid, ${bob.customerId}::uuid, 'plentiful ' || g, 'x', now() - g * interval '1 minute', now() - g * interval '1 minute' from generate_series(1, ${SEARCH_BOX_CANDIDATES + 5}) g`)
    const pages = SEARCH_BOX_CANDIDATES / 100
    const res = (await h.call('GET', `/search/notes?q=plentiful&pageSize=100&page=${pages}`, { token: bob.token })).body
    expect(res.total).toBe(SEARCH_BOX_CANDIDATES)
    expect(res.items).toHaveLength(100)
    const titles = new Set<string>()
    for (let p = 1; p <= pages; p++)
      for (const n of (await h.call('GET', `/search/notes?q=plentiful&pageSize=100&page=${p}`, { token: bob.token })).body.items) titles.add(n.title)
    expect(titles.size).toBe(SEARCH_BOX_CANDIDATES)
    expect(titles.has(`plentiful ${SEARCH_BOX_CANDIDATES + 5}`)).toBe(false)
  })

  test('another ecosystem finds nothing; paging keeps the total', async () => {
    const stranger = await h.register()
    const other = await provision(h, stranger)
    const theirs = await customerOf(h, other, stranger)
    for (const what of ['threads', 'replies', 'documents', 'notes']) expect((await find(what, 'dog apples onboarding', theirs.token)).total).toBe(0)
    expect((await find('threads', 'dog', theirs.token)).total).toBe(0)
    const page2 = (await h.call('GET', '/search/threads?q=dog&pageSize=1&page=2', { token: bob.token })).body
    expect(page2).toMatchObject({ total: 2, page: 2, pageSize: 1 })
    expect(page2.items).toHaveLength(1)
    expect((await h.call('GET', '/search/threads?q=dog&pageSize=1&page=9', { token: bob.token })).body).toMatchObject({ total: 2, items: [] })
  })
})
