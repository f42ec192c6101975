import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHarness, type Harness } from '../support/harness'
import { customerOf, provision } from '../support/tenancy'

// PostgREST's grammar as it writes it, over HTTP on a derived list (/data/documents).
const TITLES = ['Grocery list', 'Project plan', 'Plan "B", draft', 'a\\b', 'Trip', '100%_done']

let h: Harness
let token: string
const ids: Record<string, string> = {}
beforeAll(async () => {
  h = await createHarness()
  const owner = await h.register()
  token = (await customerOf(h, await provision(h, owner), owner)).token
  for (const title of TITLES) ids[title] = (await h.call('POST', '/data/documents', { token, body: { title } })).body.id
})
afterAll(() => h.close())

const q = (params: Record<string, string>) =>
  Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&')
const list = (params: Record<string, string>) => h.call('GET', `/data/documents?${q(params)}`, { token })
async function titles(params: Record<string, string>, ordered = false): Promise<string[]> {
  const res = await list(params)
  expect(res.status, `${q(params)}: ${JSON.stringify(res.body)}`).toBe(200)
  const out = res.body.items.map((d: { title: string }) => d.title)
  return ordered ? out : out.sort()
}
const sorted = (...t: string[]) => t.sort()

describe('/data/documents: PostgREST forms', () => {
  test('quoted in-lists: commas, parentheses and escaped quotes inside quotes; unquoted items as before', async () => {
    expect(await titles({ title: 'in.("Grocery list","Project plan")' })).toEqual(sorted('Grocery list', 'Project plan'))
    expect(await titles({ title: 'in.("Plan \\"B\\", draft",Trip)' })).toEqual(sorted('Plan "B", draft', 'Trip'))
    expect(await titles({ title: 'in.("a\\\\b")' })).toEqual(['a\\b'])
    expect(await titles({ title: 'in.(Trip,"no such")' })).toEqual(['Trip'])
  })

  test('not. before eq, in, like, ilike and is', async () => {
    expect(await titles({ title: 'not.eq.Trip' })).toHaveLength(TITLES.length - 1)
    expect(await titles({ title: 'not.in.("Grocery list","Plan \\"B\\", draft",Trip,"a\\\\b")' })).toEqual(sorted('Project plan', '100%_done'))
    expect(await titles({ title: 'not.ilike.*plan*' })).toEqual(sorted('Grocery list', 'a\\b', 'Trip', '100%_done'))
    expect(await titles({ title: 'not.like.*plan*' })).toEqual(sorted('Grocery list', 'Plan "B", draft', 'a\\b', 'Trip', '100%_done'))
    expect(await titles({ title: 'not.is.null' })).toHaveLength(TITLES.length)
    expect(await titles({ title: 'is.null' })).toEqual([])
  })

  test('like is case-sensitive, ilike is not; * is the wildcard, % and _ are literal', async () => {
    expect(await titles({ title: 'like.*Plan*' })).toEqual(['Plan "B", draft'])
    expect(await titles({ title: 'ilike.*Plan*' })).toEqual(sorted('Plan "B", draft', 'Project plan'))
    expect(await titles({ title: 'like.100%_*' })).toEqual(['100%_done'])
    expect(await titles({ title: 'like.1_0*' })).toEqual([])
    expect(await titles({ title: 'like.%' })).toEqual([])
  })

  test('or=/and= trees, nested up to three levels; values may be quoted', async () => {
    expect(await titles({ or: '(title.eq.Trip,title.eq.Grocery list)' })).toEqual(sorted('Grocery list', 'Trip'))
    expect(await titles({ or: '(title.eq.Trip,and(title.ilike.*plan*,title.not.like.*draft*))' })).toEqual(sorted('Project plan', 'Trip'))
    expect(await titles({ or: '(title.eq."Plan \\"B\\", draft",title.in.("a\\\\b",Trip))' })).toEqual(sorted('Plan "B", draft', 'a\\b', 'Trip'))
    expect(await titles({ and: '(title.ilike.*p*,or(title.eq.Trip,and(title.like.P*,title.not.eq.Project plan)))' })).toEqual(sorted('Plan "B", draft', 'Trip'))
    expect(await titles({ or: '(not.and(title.ilike.*p*,title.ilike.*l*),title.eq.Trip)' })).toEqual(sorted('Grocery list', 'a\\b', 'Trip', '100%_done'))
    expect(await titles({ 'not.or': '(title.ilike.*plan*,title.eq.Trip)' })).toEqual(sorted('Grocery list', 'a\\b', '100%_done'))
    expect(await titles({ or: '(title.eq.Trip,title.eq.Trip)', title: 'like.T*' })).toEqual(['Trip'])
  })

  test('order= is an alias of sort, with .asc/.desc and .nullsfirst/.nullslast', async () => {
    const bySort = await titles({ sort: '-title' }, true)
    expect(await titles({ order: 'title.desc' }, true)).toEqual(bySort)
    expect(await titles({ order: 'title.desc.nullslast' }, true)).toEqual(bySort)
    expect(await titles({ order: 'title.asc.nullsfirst' }, true)).toEqual([...bySort].reverse())
    expect(await titles({ order: 'title' }, true)).toEqual([...bySort].reverse())
  })

  test('select= projects: items hold `id` and the named readable fields only, in a normal page', async () => {
    const res = await list({ select: 'title,createdAt', title: 'eq.Trip' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toStartWith('application/json')
    expect(res.body).toMatchObject({ total: 1, page: 1 })
    expect(res.body.items).toEqual([{ id: ids.Trip, title: 'Trip', createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }])
    expect((await list({ select: 'id', title: 'eq.Trip' })).body.items).toEqual([{ id: ids.Trip }])
  })

  test.each([
    [{ title: 'in.("open)' }, 'query.title', 'unterminated quote'],
    [{ title: 'in.(a(b))' }, 'query.title', 'quote a value'],
    [{ title: 'in.("a"b)' }, 'query.title', 'after a closing quote'],
    [{ title: 'not.not.eq.x' }, 'query.title', 'write [not.]<op>.<value>'],
    [{ title: 'not.gt.x' }, 'query.title', 'gt compares numbers'],
    [{ or: 'title.eq.x' }, 'query.or', 'parenthesised list'],
    [{ or: '()' }, 'query.or', 'empty or()'],
    [{ or: '(title.eq.a' }, 'query.or', 'parenthesised list'],
    [{ or: '(title.eq.a))' }, 'query.or', 'unbalanced'],
    [{ or: '(ownerId.eq.x)' }, 'query.or', 'not a filterable column'],
    [{ or: '(constructor.eq.x)' }, 'query.or', 'not a filterable column'],
    [{ and: '(__proto__.eq.x)' }, 'query.and', 'not a filterable column'],
    [{ or: '(title.gt.a)' }, 'query.or', 'title: gt compares'],
    [{ or: '(title.eq.a,and(title.eq.b,or(title.eq.c,and(title.eq.d))))' }, 'query.or', 'at most 3 levels'],
    [{ order: 'title.sideways' }, 'query.order', 'write column'],
    [{ order: 'title.desc.asc' }, 'query.order', 'write column'],
    [{ order: 'constructor.desc' }, 'query.order', 'constructor is not sortable'],
    [{ order: 'title', sort: 'title' }, 'query.order', 'alias of sort'],
    [{ select: 'id,secret' }, 'query.select', '"secret" is not a readable field'],
    [{ select: 'toString' }, 'query.select', 'is not a readable field'],
    [{ select: 'title:t' }, 'query.select', 'is not a readable field'],
    [{ select: 'id,id' }, 'query.select', 'appears twice'],
  ])('%j is 400 naming %s', async (params, name, message) => {
    const res = await list(params as Record<string, string>)
    expect(res.status, JSON.stringify(res.body)).toBe(400)
    expect(res.body.error.code).toBe('validation_failed')
    expect(res.body.error.message).toStartWith(`${name}:`)
    expect(res.body.error.message).toContain(message)
  })
})
