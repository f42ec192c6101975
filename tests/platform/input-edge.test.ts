import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { sha256Hex } from '../../src/platform/crypto'
import { throttledLog } from '../../src/platform/logger'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { customerOf, provision, type Provisioned } from '../support/tenancy'

let h: Harness
let owner: RegisteredUser
let org: Provisioned
beforeAll(async () => {
  h = await createHarness()
  owner = await h.register()
  org = await provision(h, owner)
})
afterAll(() => h.close())

const json = (body: string) => ({ body, headers: { 'content-type': 'application/json' } })

describe('NUL characters never reach the database', () => {
  test('in a JSON body, unauthenticated: 400 validation_failed', async () => {
    for (const body of [
      { email: 'a\u0000@example.test', password: 'long-enough-1' },
      { email: 'a@example.test', password: 'x\u0000yyyyyyyy' },
    ]) {
      const res = await h.call('POST', '/auth/login', { body })
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe('validation_failed')
    }
    const nestedKey = await h.call('POST', '/customer/register', { ...org.as(owner), body: '{"externalId":"ok","metadata":{"k\\u0000":"v"}}' })
    expect(nestedKey.status).toBe(400)
  })

  test('in a path or query string: 400 validation_failed', async () => {
    for (const path of ['/registry/resolve/%00', '/registry/resolve/a.b%00c', `/customer/customers?search=%00`, '/persona/public/%00']) {
      const res = await h.call('GET', path, org.as(owner))
      expect(res.status, path).toBe(400)
      expect(res.body.error.code, path).toBe('validation_failed')
    }
  })

  test('in a form body of the OAuth token endpoint: 400, never 500', async () => {
    const res = await h.call('POST', '/api/oauth/signin/exchange', {
      body: 'grant_type=authorization_code&code=a%00b&client_id=x&client_secret=y&redirect_uri=https%3A%2F%2Fa.example%2Fcb&code_verifier=v',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(res.status).toBe(400)
  })
})

describe('bodies must be JSON objects', () => {
  test.each(['[{}]', 'null', '"a string"', '5', 'true'])('%s is refused on routes with all-optional fields, and nothing is created', async (body) => {
    const before = (await h.call('GET', '/customer/customers', org.as(owner))).body.total
    const res = await h.call('POST', '/customer/register', { ...org.as(owner), ...json(body) })
    expect(res.status).toBe(400)
    expect(res.body.error).toEqual({ code: 'validation_failed', message: 'body: the request body must be a JSON object' })
    expect((await h.call('POST', '/auth/revoke', json(body))).status).toBe(400)
    expect((await h.call('GET', '/customer/customers', org.as(owner))).body.total).toBe(before)
  })

  test('truncated JSON where the body is optional is 400 invalid_json, and no conversation is created', async () => {
    const customer = await customerOf(h, org, owner)
    const res = await h.call('POST', '/chat/conversations', { token: customer.token, ...json('{"title": "trunc') })
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('invalid_json')
    expect((await h.call('GET', '/chat/conversations', { token: customer.token })).body.total).toBe(0)
    expect((await h.call('POST', '/chat/conversations', { token: customer.token })).status).toBe(201)
  })
})

describe('paging', () => {
  test('page is bounded (10,000): a huge page is 400 naming the query, not 500', async () => {
    for (const page of ['1000000000000000000', '10001', '1e300']) {
      const res = await h.call('GET', `/customer/customers?page=${page}`, org.as(owner))
      expect(res.status, page).toBe(400)
      expect(res.body.error.message, page).toStartWith('query:')
    }
    expect((await h.call('GET', '/customer/customers?page=10000', org.as(owner))).body.items).toEqual([])
  })
})

describe('logs', () => {
  test('a request line names the principal and ecosystem; /health only at debug level', async () => {
    const start = h.logLines.length
    await h.call('GET', '/customer/customers', { ...org.as(owner), headers: { ...org.as(owner).headers, 'x-request-id': 'req-ids-1' } })
    await h.call('GET', '/health')
    // The request line is written after the response has gone out.
    for (let i = 0; i < 50 && !h.logLines.slice(start).some((l) => l.includes('"/health"')); i++) await Bun.sleep(10)
    const lines = h.logLines.slice(start).map((l) => JSON.parse(l))
    expect(lines.find((l) => l.requestId === 'req-ids-1')).toMatchObject({
      level: 'info',
      principalId: owner.user.id,
      ecosystemId: org.ecosystem.id,
      status: 200,
    })
    expect(lines.find((l) => l.path === '/health')).toMatchObject({ level: 'debug' })
  })

  test('a 500 logs its request id and the database error, never the query parameters; a flood is throttled', async () => {
    const broken = await createHarness()
    try {
      const user = await broken.register()
      const created = await broken.call('POST', '/auth/tokens', { token: user.token, body: { name: 'ci' } })
      const raw: string = created.body.token
      await broken.db.execute(sql`alter table auth.api_tokens rename to api_tokens_gone`)
      const start = broken.logLines.length
      const res = await broken.call('GET', '/auth/me', { token: raw, headers: { 'x-request-id': 'req-500' } })
      expect(res.status).toBe(500)
      expect(res.body).toEqual({ error: { code: 'internal_error', message: 'Internal server error' } })
      for (let i = 0; i < 40; i++) await broken.call('GET', '/auth/me', { token: raw })
      const logged = broken.logLines.slice(start)
      const errors = logged.map((l) => JSON.parse(l)).filter((l) => l.msg === 'unhandled error')
      expect(errors[0]).toMatchObject({ requestId: 'req-500', method: 'GET', path: '/auth/me', sqlState: '42P01' })
      expect(errors[0].query).toContain('api_tokens')
      expect(errors.length).toBe(10)
      expect(logged.join('\n')).not.toContain(sha256Hex(raw))
      expect(logged.join('\n')).not.toContain(raw)
    } finally {
      await broken.close()
    }
  })

  test('throttledLog: at most N lines per key a minute, then one saying how many were suppressed', () => {
    let t = 0
    const lines: Record<string, unknown>[] = []
    const log = throttledLog(
      (_msg, fields) => lines.push(fields!),
      2,
      () => t,
    )
    for (let i = 0; i < 5; i++) log('a', 'm', { i })
    log('b', 'm', { i: 'b' })
    t = 60_000
    log('a', 'm', { i: 'later' })
    expect(lines).toEqual([{ i: 0 }, { i: 1 }, { i: 'b' }, { i: 'later', suppressedBefore: 3 }])
  })
})
