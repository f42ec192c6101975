import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createHarness, type Harness } from '../support/harness'
import { customerOf, provision } from '../support/tenancy'

// The filter grammar examples of docs/api/lists.md, run as written (values URL-encoded as a browser would).
const DOC = readFileSync(join(import.meta.dir, '..', '..', 'docs', 'api', 'lists.md'), 'utf8')
const block = DOC.split('tests/crud/readme-grammar.test.ts runs them')[1]!.split('```')[1]!
const examples = block
  .split('\n')
  .filter((line) => line.startsWith('GET '))
  .map((line) => {
    const [, path, answer] = /^GET (.+?)\s+→ (.+)$/.exec(line)!
    return { path: path!, answer: answer! }
  })
const encode = (path: string) => {
  const [base, query = ''] = path.split(/\?(.*)/s)
  return `${base}?${query
    .split('&')
    .map((pair) => pair.replace(/=(.*)/s, (_, value: string) => `=${encodeURIComponent(value)}`))
    .join('&')}`
}

let h: Harness
let token: string
beforeAll(async () => {
  h = await createHarness()
  const owner = await h.register()
  const customer = await customerOf(h, await provision(h, owner), owner)
  token = customer.token
  for (const title of ['Grocery list', 'Project plan', 'Plan "B", draft', 'Trip']) {
    expect((await h.call('POST', '/data/documents', { token, body: { title } })).status).toBe(201)
  }
})
afterAll(() => h.close())

test('docs/api/lists.md has the examples', () => expect(examples.length).toBeGreaterThanOrEqual(6))

test.each(examples.map((e) => [e.path, e.answer]))('%s → %s', async (path, answer) => {
  const res = await h.call('GET', encode(path), { token })
  if (answer.startsWith('400 ')) {
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('validation_failed')
    expect(res.body.error.message).toStartWith(answer.slice(4))
    return
  }
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  const titles: string[] = res.body.items.map((d: { title: string }) => d.title)
  const expected: string[] = JSON.parse(answer)
  // Without an order the default sort (newest first) decides; compare as sets then.
  if (/[?&](order|sort)=/.test(path)) expect(titles).toEqual(expected)
  else expect(titles.sort()).toEqual(expected.sort())
})
