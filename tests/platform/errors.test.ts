import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHarness, type Harness } from '../support/harness'
import { provision } from '../support/tenancy'

let h: Harness
beforeAll(async () => {
  h = await createHarness({ MAX_BODY_BYTES: '2048' })
})
afterAll(() => h.close())

describe('error responses', () => {
  test('unknown routes: 404 not_found in the error shape', async () => {
    const res = await h.call('GET', '/no/such/route')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ error: { code: 'not_found', message: expect.any(String) } })
  })

  test('malformed JSON: 400 invalid_json', async () => {
    const res = await h.call('POST', '/auth/login', { body: '{"email": "a@b.c", ', headers: { 'content-type': 'application/json' } })
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('invalid_json')
  })

  test('validation errors: 400 validation_failed naming the field', async () => {
    const res = await h.call('POST', '/auth/login', { body: { email: 'a@b.c' } })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: { code: 'validation_failed', message: expect.stringContaining('body.password') } })
  })

  test('a value outside an enum: the message names the field and lists the allowed values', async () => {
    const owner = await h.register()
    const org = await provision(h, owner)
    const query = await h.call('GET', '/community/leaderboard?period=decade', org.as(owner))
    expect(query.status).toBe(400)
    expect(query.body.error).toEqual({ code: 'validation_failed', message: 'query.period: must be one of "all_time", "year", "month", "week", "day"' })
    const body = await h.call('PUT', '/search/settings', { ...org.as(owner), body: { language: 'klingon' } })
    expect(body.status).toBe(400)
    expect(body.body.error.message).toBe('body.language: must be one of "english", "simple"')
  })

  test('oversized bodies: 413 payload_too_large', async () => {
    const res = await h.call('POST', '/auth/register', {
      body: { email: 'big@example.test', password: 'x'.repeat(4000), name: 'Big' },
    })
    expect(res.status).toBe(413)
    expect(res.body.error.code).toBe('payload_too_large')
  })

  test('bodies that are not JSON: 415 unsupported_media_type, before anything runs', async () => {
    const login = JSON.stringify({ email: 'nobody@example.test', password: 'whatever-password' })
    const attempts = [
      ['text/plain', login],
      ['application/x-www-form-urlencoded', 'email=nobody%40example.test&password=whatever-password'],
      ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\nnobody@example.test\r\n--x--\r\n'],
    ]
    for (const [contentType, body] of attempts) {
      const res = await h.call('POST', '/auth/register', { body, headers: { 'content-type': contentType! } })
      expect(res.status, contentType).toBe(415)
      expect(res.body).toEqual({ error: { code: 'unsupported_media_type', message: expect.stringContaining('application/json') } })
    }
    const untyped = await h.app.handle(
      new Request('http://localhost/auth/register', { method: 'POST', headers: { 'content-length': String(login.length) }, body: login }),
    )
    expect(untyped.status).toBe(415)
    const charset = await h.call('POST', '/auth/login', { body: login, headers: { 'content-type': 'application/json; charset=utf-8' } })
    expect(charset.status).toBe(401)
  })

  test('errors are never HTML or stack traces', async () => {
    const bodies = [
      await h.call('GET', '/no/such/route'),
      await h.call('POST', '/auth/login', { body: '<html>', headers: { 'content-type': 'application/json' } }),
      await h.call('PATCH', '/auth/me', { body: '{}', headers: { 'content-type': 'text/plain' } }),
    ]
    for (const res of bodies) {
      expect(res.headers.get('content-type')).toContain('application/json')
      expect(JSON.stringify(res.body)).not.toMatch(/<html|at .*\.ts:\d+/)
    }
  })
})

describe('request ids and logs', () => {
  test('every response carries X-Request-Id; a well-formed incoming one is echoed', async () => {
    const generated = await h.call('GET', '/health')
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    const echoed = await h.call('GET', '/health', { headers: { 'x-request-id': 'trace-abc.123' } })
    expect(echoed.headers.get('x-request-id')).toBe('trace-abc.123')
    const refused = await h.call('GET', '/health', { headers: { 'x-request-id': 'bad id with spaces' } })
    expect(refused.headers.get('x-request-id')).not.toBe('bad id with spaces')
    const error = await h.call('GET', '/nowhere', { headers: { 'x-request-id': 'err-1' } })
    expect(error.headers.get('x-request-id')).toBe('err-1')
  })

  test('request logs are JSON lines with the request id, status and no secrets', async () => {
    const password = 'super-secret-password'
    const user = await h.register({ password })
    await h.call('POST', '/auth/refresh', { body: { refreshToken: user.refreshToken }, headers: { 'x-request-id': 'log-check-1' } })
    await h.call('GET', '/auth/me?token=should-not-be-logged', { token: user.token })
    await h.call('GET', '/health', { headers: { 'x-request-id': 'log-check-2' } })
    // Request lines are written after the response has gone out.
    for (let i = 0; i < 100 && !h.logLines.some((l) => l.includes('log-check-2')); i++) await Bun.sleep(10)
    const lines = h.logLines.map((l) => JSON.parse(l))
    const line = lines.find((l) => l.requestId === 'log-check-1')
    expect(line).toMatchObject({ level: 'info', msg: 'request', method: 'POST', path: '/auth/refresh', status: 200 })
    expect(typeof line.durationMs).toBe('number')
    const all = h.logLines.join('\n')
    for (const secret of [password, user.refreshToken, user.token, 'should-not-be-logged']) expect(all).not.toContain(secret)
    expect(lines.some((l) => l.status === 401 || l.status === 404 || l.status === 400)).toBe(true)
  })
})

describe('health and version', () => {
  test('GET /health checks the database', async () => {
    expect((await h.call('GET', '/health')).body).toEqual({ status: 'ok', database: 'ok' })
  })

  test('GET /site/version reports version, runtime and database kind', async () => {
    const res = await h.call('GET', '/site/version')
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      name: 'ecobase',
      version: '0.0.0',
      runtime: `bun ${Bun.version}`,
      database: h.databaseUrl ? 'postgres' : 'pglite',
    })
    expect(res.body).toHaveProperty('commit')
  })
})
