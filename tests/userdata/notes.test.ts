import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHarness, type Harness } from '../support/harness'
import { customerOf, provision } from '../support/tenancy'

let h: Harness
let me: { token: string; customerId: string }
let subject: string
beforeAll(async () => {
  h = await createHarness()
  const owner = await h.register()
  const org = await provision(h, owner)
  me = await customerOf(h, org, owner)
  subject = crypto.randomUUID()
  const notes = [
    { title: 'kickoff', occurredAt: '2026-01-05T09:00:00.000Z', subjectTable: 'data.documents', subjectId: subject },
    { title: 'review', occurredAt: '2026-01-20T09:00:00.000Z', subjectTable: 'data.documents', subjectId: subject },
    { title: 'another doc', occurredAt: '2026-01-20T09:00:00.000Z', subjectTable: 'data.documents', subjectId: crypto.randomUUID() },
    { title: 'loose', occurredAt: '2026-02-02T09:00:00.000Z' },
  ]
  for (const body of notes) {
    const res = await h.call('POST', '/userdata/notes', { token: me.token, body: { body: `about ${body.title}`, ...body } })
    if (res.status !== 201) throw new Error(JSON.stringify(res.body))
  }
})
afterAll(() => h.close())

const titles = async (query: string) => {
  const res = await h.call('GET', `/userdata/notes?${query}`, { token: me.token })
  expect(res.status, query).toBe(200)
  return res.body.items.map((n: { title: string }) => n.title)
}

describe('/userdata/notes', () => {
  test('a note has exactly the fields of SearchNoteResult', async () => {
    const res = await h.call('GET', '/userdata/notes?title=eq.kickoff', { token: me.token })
    expect(Object.keys(res.body.items[0]).sort()).toEqual(
      ['id', 'customerId', 'ownerId', 'title', 'body', 'occurredAt', 'createdAt', 'updatedAt', 'deletedAt', 'subjectTable', 'subjectId'].sort(),
    )
    expect(res.body.items[0]).toMatchObject({
      customerId: me.customerId,
      occurredAt: '2026-01-05T09:00:00.000Z',
      subjectTable: 'data.documents',
      subjectId: subject,
      deletedAt: null,
    })
  })

  test('filter by subject, by occurredAt ranges, and by missing subject; newest first by default', async () => {
    expect(await titles(`subjectTable=eq.data.documents&subjectId=eq.${subject}`)).toEqual(['review', 'kickoff'])
    expect(await titles('occurredAt=gte.2026-01-01&occurredAt=lt.2026-02-01&sort=occurredAt,title')).toEqual(['kickoff', 'another doc', 'review'])
    expect(await titles('occurredAt=gt.2026-01-20T09:00:00.000Z')).toEqual(['loose'])
    expect(await titles('occurredAt=lte.2026-01-05T09:00:00.000Z')).toEqual(['kickoff'])
    expect(await titles('occurredAt=eq.2026-01-20T09:00:00.000Z&sort=-title')).toEqual(['review', 'another doc'])
    expect(await titles('subjectTable=is.null')).toEqual(['loose'])
    expect(await titles(`subjectId=in.(${subject},nothing)&sort=title`)).toEqual(['kickoff', 'review'])
    expect(await titles(`subjectId=neq.${subject}&sort=title`)).toEqual(['another doc'])
    // Default -occurredAt; the two notes of 2026-01-20 tie and follow the id order, whichever that is.
    const byDefault = await titles('')
    expect([byDefault[0], byDefault[3]]).toEqual(['loose', 'kickoff'])
    expect(byDefault.slice(1, 3).sort()).toEqual(['another doc', 'review'])
  })

  test('a timestamp read from a response filters back exactly', async () => {
    const [first] = (await h.call('GET', '/userdata/notes?title=eq.loose', { token: me.token })).body.items
    expect(await titles(`createdAt=eq.${first.createdAt}&title=eq.loose`)).toEqual(['loose'])
  })

  test('occurredAt defaults to now; a malformed one is 400', async () => {
    const res = await h.call('POST', '/userdata/notes', { token: me.token, body: { title: 'now' } })
    expect(res.status).toBe(201)
    expect(Math.abs(Date.parse(res.body.occurredAt) - Date.now())).toBeLessThan(60_000)
    expect((await h.call('POST', '/userdata/notes', { token: me.token, body: { title: 'x', occurredAt: 'yesterday' } })).status).toBe(400)
    expect((await h.call('DELETE', `/userdata/notes/${res.body.id}`, { token: me.token })).status).toBe(204)
  })
})
