import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { documentBlocks } from '../../src/modules/data/schema'
import { connect } from '../client/connect'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { customerOf, provision, type Provisioned } from '../support/tenancy'

let h: Harness
let owner: RegisteredUser
let org: Provisioned
let alice: { token: string; customerId: string }
let bob: { token: string; customerId: string }
beforeAll(async () => {
  h = await createHarness()
  owner = await h.register()
  org = await provision(h, owner)
  alice = await customerOf(h, org, owner)
  bob = await customerOf(h, org, owner)
})
afterAll(() => h.close())

const create = (who: { token: string }, title: string) => h.call('POST', '/data/documents', { token: who.token, body: { title } })
const block = (who: { token: string }, documentId: string, position: string, extra: Record<string, unknown> = {}) =>
  h.call('POST', '/data/document_blocks', { token: who.token, body: { documentId, blockType: 'paragraph', position, content: `at ${position}`, ...extra } })

describe('/data/documents', () => {
  test('owner fields come from the caller, never from the body; unknown or server fields are 400 naming them', async () => {
    const res = await create(alice, 'Plan')
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      id: expect.any(String),
      ownerId: org.ecosystem.id,
      customerId: alice.customerId,
      title: 'Plan',
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
      deletedAt: null,
    })
    for (const [field, value] of [
      ['ownerId', crypto.randomUUID()],
      ['customerId', bob.customerId],
      ['id', crypto.randomUUID()],
      ['colour', 'red'],
    ] as const) {
      const bad = await h.call('POST', '/data/documents', { token: alice.token, body: { title: 'x', [field]: value } })
      expect(bad.status, field).toBe(400)
      expect(bad.body.error.message, field).toStartWith(`body.${field}: not a writable field`)
      const patch = await h.call('PATCH', `/data/documents/${res.body.id}`, { token: alice.token, body: { [field]: value } })
      expect(patch.status, field).toBe(400)
    }
    expect((await h.call('POST', '/data/documents', { token: alice.token, body: { title: '' } })).status).toBe(400)
    expect((await h.call('PATCH', `/data/documents/${res.body.id}`, { token: alice.token, body: {} })).status).toBe(400)
    const renamed = await h.call('PATCH', `/data/documents/${res.body.id}`, { token: alice.token, body: { title: 'Plan B' } })
    expect(renamed.body).toMatchObject({ title: 'Plan B', customerId: alice.customerId })
    expect(renamed.body.updatedAt >= res.body.updatedAt).toBe(true)
  })

  test('a customer sees its own rows only; an ecosystem admin sees all of them', async () => {
    const mine = await create(bob, 'Bob private')
    expect((await h.call('GET', `/data/documents/${mine.body.id}`, { token: alice.token })).status).toBe(404)
    expect(JSON.stringify((await h.call('GET', '/data/documents', { token: alice.token })).body)).not.toContain(mine.body.id)
    expect((await h.call('GET', `/data/documents/${mine.body.id}`, org.as(owner))).status).toBe(200)
    expect((await h.call('GET', `/data/documents/${crypto.randomUUID()}`, { token: bob.token })).status).toBe(404)
  })

  test('filters, multi-key sort and paging (total right); hostile values are plain values', async () => {
    const carol = await customerOf(h, org, owner)
    for (const title of ['beta', 'Alpha', 'gamma', "o'brien; drop table data.documents;--", '100% \\ done', 'alpha']) await create(carol, title)
    const list = (query: string) => h.call('GET', `/data/documents?${query}`, { token: carol.token })
    const titles = async (query: string) => (await list(query)).body.items.map((d: { title: string }) => d.title)
    expect(await titles('title=ilike.*mm*')).toEqual(['gamma'])
    expect((await titles('title=ilike.alpha')).sort()).toEqual(['Alpha', 'alpha'])
    expect(await titles('title=eq.beta')).toEqual(['beta'])
    expect((await titles('title=neq.beta')).length).toBe(5)
    expect((await titles('title=in.(beta,gamma)')).sort()).toEqual(['beta', 'gamma'])
    expect(await titles(`title=eq.${encodeURIComponent("o'brien; drop table data.documents;--")}`)).toEqual(["o'brien; drop table data.documents;--"])
    expect(await titles(`title=ilike.${encodeURIComponent('100%*')}`)).toEqual(['100% \\ done'])
    expect(await titles(`title=ilike.${encodeURIComponent('*\\*')}`)).toEqual(['100% \\ done'])
    expect(await titles('title=ilike.*%25*')).toEqual(['100% \\ done'])
    expect(await titles('title=ilike._eta')).toEqual([])

    const page1 = await list('sort=-title&pageSize=4')
    const page2 = await list('sort=-title&pageSize=4&page=2')
    expect(page1.body).toMatchObject({ total: 6, page: 1, pageSize: 4 })
    expect(page2.body.items).toHaveLength(2)
    expect([...page1.body.items, ...page2.body.items].map((d: { id: string }) => d.id)).toHaveLength(
      new Set([...page1.body.items, ...page2.body.items].map((d: { id: string }) => d.id)).size,
    )
    const since = page1.body.items[0].createdAt
    expect((await list(`createdAt=gte.${since}&createdAt=lte.${since}`)).body.total).toBeGreaterThanOrEqual(1)
    expect((await list('createdAt=gt.2999-01-01T00:00:00Z')).body.total).toBe(0)
    expect((await list('createdAt=lt.2000-01-01')).body.total).toBe(0)

    for (const [query, field] of [
      ['customerId=eq.x', 'customerId'],
      ['search=eq.x', 'search'],
      ['title=gt.a', 'title'],
      ['sort=ownerId', 'sort'],
      ['createdAt=eq.soon', 'createdAt'],
      ['pageSize=101', ''],
      ['title=eq.a%00b', ''],
    ] as const) {
      const res = await list(query)
      expect(res.status, query).toBe(400)
      expect(res.body.error.code, query).toBe('validation_failed')
      if (field) expect(res.body.error.message, query).toContain(field)
    }
  })

  test('soft delete: reads hide the row, admins list it with includeDeleted, customers may not ask', async () => {
    const doc = await create(alice, 'Doomed')
    expect((await h.call('DELETE', `/data/documents/${doc.body.id}`, { token: alice.token })).status).toBe(204)
    expect((await h.call('GET', `/data/documents/${doc.body.id}`, { token: alice.token })).status).toBe(404)
    expect((await h.call('PATCH', `/data/documents/${doc.body.id}`, { token: alice.token, body: { title: 'back' } })).status).toBe(404)
    expect((await h.call('DELETE', `/data/documents/${doc.body.id}`, { token: alice.token })).status).toBe(404)
    expect(JSON.stringify((await h.call('GET', '/data/documents', { token: alice.token })).body)).not.toContain(doc.body.id)
    expect((await h.call('GET', '/data/documents?includeDeleted=true', { token: alice.token })).status).toBe(403)
    const admin = await h.call('GET', `/data/documents?includeDeleted=true&title=eq.Doomed`, org.as(owner))
    expect(admin.body.items).toEqual([expect.objectContaining({ id: doc.body.id, deletedAt: expect.stringMatching(/Z$/) })])
  })
})

describe('/data/document_blocks', () => {
  test('list in position order, byte-wise, so a block fits between two others without renumbering', async () => {
    const doc = await create(alice, 'Ordered')
    for (const position of ['b', 'a', 'B', 'a0', 'aV', 'Z9']) expect((await block(alice, doc.body.id, position)).status).toBe(201)
    const list = await h.call('GET', `/data/document_blocks?documentId=eq.${doc.body.id}`, { token: alice.token })
    expect(list.body.items.map((b: { position: string }) => b.position)).toEqual(['B', 'Z9', 'a', 'a0', 'aV', 'b'])
    const headings = await h.call('GET', `/data/document_blocks?documentId=eq.${doc.body.id}&blockType=eq.heading`, { token: alice.token })
    expect(headings.body.total).toBe(0)
  })

  test('block type and position are checked; a block belongs to a live document of yours', async () => {
    const doc = await create(alice, 'Checked')
    expect((await block(alice, doc.body.id, 'a', { blockType: 'table' })).status).toBe(400)
    expect((await block(alice, doc.body.id, 'a b')).status).toBe(400)
    expect((await block(alice, doc.body.id, '')).status).toBe(400)
    const foreign = await block(bob, doc.body.id, 'a')
    expect(foreign.status).toBe(404)
    expect(foreign.body.error.code).toBe('document_not_found')
    expect((await block(alice, crypto.randomUUID(), 'a')).status).toBe(404)
    const made = await block(alice, doc.body.id, 'm')
    expect((await h.call('PATCH', `/data/document_blocks/${made.body.id}`, { token: alice.token, body: { documentId: crypto.randomUUID() } })).status).toBe(400)
    const moved = await h.call('PATCH', `/data/document_blocks/${made.body.id}`, {
      token: alice.token,
      body: { position: 'n', blockType: 'quote', content: 'moved' },
    })
    expect(moved.body).toMatchObject({ position: 'n', blockType: 'quote', content: 'moved', documentId: doc.body.id })
  })

  test("a block is its document's customer's, whoever writes it: an admin adds blocks to a customer's document and to one it made itself", async () => {
    const admin = org.as(owner)
    const adminBlock = (documentId: string, position: string) =>
      h.call('POST', '/data/document_blocks', { ...admin, body: { documentId, blockType: 'paragraph', position, content: `admin at ${position}` } })
    const doc = await create(alice, 'Shared with support')
    const added = await adminBlock(doc.body.id, 'a')
    expect(added.status).toBe(201)
    expect(added.body.customerId).toBe(alice.customerId)
    const seen = await h.call('GET', `/data/document_blocks?documentId=eq.${doc.body.id}`, { token: alice.token })
    expect(seen.body.items.map((b: { content: string }) => b.content)).toEqual(['admin at a'])
    expect((await h.call('PATCH', `/data/document_blocks/${added.body.id}`, { token: alice.token, body: { content: 'mine now' } })).status).toBe(200)

    const own = await h.call('POST', '/data/documents', { ...admin, body: { title: 'Made in the console' } })
    expect(own.status).toBe(201)
    const onOwn = await adminBlock(own.body.id, 'a')
    expect(onOwn.status).toBe(201)
    expect(onOwn.body.customerId).toBe(own.body.customerId)
    expect(onOwn.body.customerId).not.toBe(alice.customerId)
    expect((await block(alice, own.body.id, 'b')).status).toBe(404)
  })

  test('deleting a document deletes its blocks in the same transaction', async () => {
    const doc = await create(alice, 'With blocks')
    await block(alice, doc.body.id, 'a')
    await block(alice, doc.body.id, 'b')
    expect((await h.call('DELETE', `/data/documents/${doc.body.id}`, { token: alice.token })).status).toBe(204)
    expect(await h.db.select().from(documentBlocks).where(eq(documentBlocks.documentId, doc.body.id))).toEqual([])
    expect((await block(alice, doc.body.id, 'c')).status).toBe(404)
  })

  test('the typed client reaches derived routes with typed rows', async () => {
    const { client } = connect(h, { tokens: { token: alice.token } })
    const { data: doc, error } = await client.api.data.documents.post({ title: 'Typed' })
    expect(error).toBeNull()
    const title: string = doc!.title
    expect(title).toBe('Typed')
    const { data: page } = await client.api.data.document_blocks.get({ query: { documentId: `eq.${doc!.id}` } as never })
    expect(page!.total).toBe(0)
  })
})
