import { describe, expect, test } from 'bun:test'
import { AppError } from '../../src/platform/errors'
import { type Filter, type ListQueryPolicy, parseListQuery } from '../../src/platform/crud/query'

const policy: ListQueryPolicy = {
  filterable: { title: 'text', n: 'integer', score: 'number', done: 'boolean', at: 'timestamp', meta: 'json', ref: 'uuid' },
  sortable: ['title', 'at', 'n'],
  defaultSort: [{ column: 'at', descending: true }],
}
const parse = (raw: Record<string, string | string[]>) => {
  const query = parseListQuery(raw, policy)
  return { ...query, filters: query.filters as Filter[] }
}
const refused = (raw: Record<string, string | string[]>) => {
  try {
    parse(raw)
  } catch (err) {
    expect(err).toBeInstanceOf(AppError)
    expect((err as AppError).status).toBe(400)
    expect((err as AppError).code).toBe('validation_failed')
    return (err as AppError).message
  }
  throw new Error(`accepted ${JSON.stringify(raw)}`)
}
const uuid = '6f1c2b9e-2f57-4a53-9b5e-0f9f6d7e3a11'

describe('filters', () => {
  test('every operator, converted for the column kind', () => {
    expect(parse({ title: 'eq.hello' }).filters).toEqual([{ column: 'title', kind: 'text', op: 'eq', value: 'hello' }])
    expect(parse({ title: 'neq.a.b' }).filters[0]!.value).toBe('a.b')
    expect(parse({ n: 'gt.5' }).filters[0]).toMatchObject({ op: 'gt', value: 5 })
    expect(parse({ n: 'gte.-5' }).filters[0]).toMatchObject({ op: 'gte', value: -5 })
    expect(parse({ score: 'lt.1.5' }).filters[0]).toMatchObject({ op: 'lt', value: 1.5 })
    expect(parse({ at: 'lte.2026-01-02T03:04:05Z' }).filters[0]!.value).toEqual(new Date('2026-01-02T03:04:05Z'))
    expect(parse({ at: 'gte.2026-01-02' }).filters[0]!.value).toEqual(new Date('2026-01-02T00:00:00Z'))
    expect(parse({ ref: `in.(${uuid},${uuid.toUpperCase()})` }).filters[0]!.value).toEqual([uuid, uuid])
    expect(parse({ n: 'in.(1,2,3)' }).filters[0]!.value).toEqual([1, 2, 3])
    expect(parse({ meta: 'is.null' }).filters[0]).toMatchObject({ op: 'is', value: null })
    expect(parse({ done: 'is.true' }).filters[0]).toMatchObject({ op: 'is', value: true })
    expect(parse({ done: 'is.false' }).filters[0]).toMatchObject({ op: 'is', value: false })
    expect(parse({ done: 'eq.true' }).filters[0]).toMatchObject({ op: 'eq', value: true })
    expect(parse({ ref: `eq.${uuid}` }).filters[0]!.value).toBe(uuid)
  })

  test('ilike turns * into % and escapes LIKE wildcards and backslashes the caller typed', () => {
    expect(parse({ title: 'ilike.*wo*rd*' }).filters[0]!.value).toBe('%wo%rd%')
    expect(parse({ title: 'ilike.100%_\\x' }).filters[0]!.value).toBe('100\\%\\_\\\\x')
  })

  test('a repeated field ANDs its conditions (ranges)', () => {
    expect(parse({ n: ['gte.1', 'lt.10'] }).filters.map((f) => [f.op, f.value])).toEqual([
      ['gte', 1],
      ['lt', 10],
    ])
  })

  test.each([
    [{ secret: 'eq.1' }, 'query.secret: not a filterable column'],
    [{ title: 'gt.a' }, 'query.title: gt compares numbers and timestamps only'],
    [{ done: 'lt.true' }, 'query.done: lt compares'],
    [{ n: 'ilike.*1*' }, 'query.n: ilike matches text columns only'],
    [{ meta: 'eq.{}' }, 'query.meta: json columns cannot be compared'],
    [{ n: 'eq.1.5' }, 'query.n: "1.5" is not an integer'],
    [{ n: 'eq.99999999999999999999' }, 'is not an integer'],
    [{ score: 'eq.NaN' }, 'is not a number'],
    [{ score: 'eq.Infinity' }, 'is not a number'],
    [{ score: 'eq.' }, 'is not a number'],
    [{ at: 'gt.yesterday' }, 'is not an ISO 8601 timestamp'],
    [{ at: 'gt.2026-13-45' }, 'is not an ISO 8601 timestamp'],
    [{ ref: 'eq.not-a-uuid' }, 'is not a UUID'],
    [{ done: 'eq.yes' }, 'true or false'],
    [{ title: 'is.true' }, 'query.title: is.null'],
    [{ title: 'hello' }, 'write [not.]<op>.<value>'],
    [{ title: 'likes.x' }, 'write [not.]<op>.<value>'],
    [{ n: 'in.1,2' }, 'write in.(a,b,c)'],
    [{ n: `in.(${Array.from({ length: 101 }, (_, i) => i).join(',')})` }, 'at most 100 values'],
  ])('%j is 400 naming the field: %s', (raw, message) => {
    expect(refused(raw as Record<string, string>)).toContain(message)
  })
})

describe('sort and paging', () => {
  test('sort keys in order, - for descending; default when absent', () => {
    expect(parse({ sort: '-at,title' }).sort).toEqual([
      { column: 'at', descending: true },
      { column: 'title', descending: false },
    ])
    expect(parse({}).sort).toEqual([{ column: 'at', descending: true }])
  })

  test.each([
    [{ sort: 'meta' }, 'query.sort: meta is not sortable'],
    [{ sort: 'title,-title' }, 'a column appears twice'],
    [{ sort: ['title', 'at'] }, 'query.sort: give it once'],
    [{ page: '0' }, 'query.page'],
    [{ page: '10001' }, 'query.page'],
    [{ page: '1e3' }, 'query.page'],
    [{ pageSize: '101' }, 'query.pageSize'],
    [{ pageSize: '0' }, 'query.pageSize'],
    [{ includeDeleted: 'yes' }, 'query.includeDeleted'],
  ])('%j is refused: %s', (raw, message) => {
    expect(refused(raw as Record<string, string>)).toContain(message)
  })

  test('page and pageSize give the offset; includeDeleted parses', () => {
    expect(parse({ page: '3', pageSize: '25' }).page).toEqual({ page: 3, pageSize: 25, offset: 50 })
    expect(parse({}).page).toEqual({ page: 1, pageSize: 20, offset: 0 })
    expect(parse({ includeDeleted: 'true' }).includeDeleted).toBe(true)
  })
})

describe('PostgREST forms', () => {
  test('quoted in-list items keep commas, parentheses and escaped quotes; not. marks the filter', () => {
    expect(parse({ title: 'in.("a,b","say \\"hi\\"",plain,"(x)","back\\\\slash")' }).filters[0]!.value).toEqual([
      'a,b',
      'say "hi"',
      'plain',
      '(x)',
      'back\\slash',
    ])
    expect(parse({ title: 'not.in.(a)' }).filters[0]).toEqual({ column: 'title', kind: 'text', op: 'in', value: ['a'], not: true })
    expect(parse({ title: 'like.A*_' }).filters[0]).toMatchObject({ op: 'like', value: 'A%\\_' })
  })

  test('or/and trees', () => {
    expect(parseListQuery({ or: '(n.eq.1,not.and(at.gt.2026-01-01,title.not.eq."x,y"))' }, policy).filters).toEqual([
      {
        combine: 'or',
        conditions: [
          { column: 'n', kind: 'integer', op: 'eq', value: 1 },
          {
            combine: 'and',
            not: true,
            conditions: [
              { column: 'at', kind: 'timestamp', op: 'gt', value: new Date('2026-01-01') },
              { column: 'title', kind: 'text', op: 'eq', value: 'x,y', not: true },
            ],
          },
        ],
      },
    ])
    expect(refused({ or: '(n.eq.1,and(n.eq.2,or(n.eq.3,and(n.eq.4))))' })).toStartWith('query.or: and/or nest at most 3 levels')
    expect(refused({ or: `(${Array.from({ length: 101 }, () => 'n.eq.1').join(',')})` })).toContain('at most 100 conditions')
  })

  test('order and select', () => {
    expect(parse({ order: 'at.desc.nullslast,title' }).sort).toEqual([
      { column: 'at', descending: true, nulls: 'last' },
      { column: 'title', descending: false },
    ])
    expect(parse({ order: '-n.nullsfirst' }).sort).toEqual([{ column: 'n', descending: true, nulls: 'first' }])
    expect(parse({ select: 'title,n' }).select).toEqual(['title', 'n'])
    expect(parse({}).select).toBeNull()
    expect(refused({ select: 'title,constructor' })).toStartWith('query.select:')
  })
})
