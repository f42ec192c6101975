import { afterAll, describe, expect, test } from 'bun:test'
import { createHarness, type Harness } from '../support/harness'

const opened: Harness[] = []
afterAll(() => Promise.all(opened.map((h) => h.close())))

async function harness(env: Record<string, string>) {
  const h = await createHarness(env)
  opened.push(h)
  return h
}

const login = (h: Harness, email: string, password: string, ip = '203.0.113.7') =>
  h.call('POST', '/auth/login', { body: { email, password }, headers: { 'x-forwarded-for': ip } })

describe('login rate limits', () => {
  test('failures per e-mail: 429 rate_limited with Retry-After, even with the right password; others unaffected', async () => {
    const h = await harness({ LOGIN_MAX_FAILURES_PER_EMAIL: '3', TRUST_PROXY: 'on' })
    const victim = await h.register()
    const bystander = await h.register()
    for (let i = 0; i < 3; i++) expect((await login(h, victim.email, 'wrong-password')).status).toBe(401)
    const blocked = await login(h, victim.email, victim.password)
    expect(blocked.status).toBe(429)
    expect(blocked.body.error.code).toBe('rate_limited')
    const retryAfter = Number(blocked.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(900)
    expect((await login(h, bystander.email, bystander.password)).status).toBe(200)
    expect((await login(h, victim.email.toUpperCase(), victim.password)).status).toBe(429)
  })

  test('a successful login clears the failure count', async () => {
    const h = await harness({ LOGIN_MAX_FAILURES_PER_EMAIL: '3', TRUST_PROXY: 'on' })
    const user = await h.register()
    for (let i = 0; i < 2; i++) await login(h, user.email, 'wrong-password')
    expect((await login(h, user.email, user.password)).status).toBe(200)
    for (let i = 0; i < 2; i++) expect((await login(h, user.email, 'wrong-password')).status).toBe(401)
    expect((await login(h, user.email, user.password)).status).toBe(200)
  })

  test('attempts per client address: 429 past the limit, other addresses unaffected', async () => {
    const h = await harness({ LOGIN_MAX_ATTEMPTS_PER_IP: '4', TRUST_PROXY: 'on' })
    const user = await h.register()
    for (let i = 0; i < 4; i++) await login(h, `sprayed-${i}@example.test`, 'whatever-pass', '198.51.100.1')
    const blocked = await login(h, user.email, user.password, '198.51.100.1')
    expect(blocked.status).toBe(429)
    expect(blocked.headers.get('retry-after')).not.toBeNull()
    expect((await login(h, user.email, user.password, '198.51.100.2')).status).toBe(200)
  })

  test('X-Forwarded-For is ignored unless TRUST_PROXY=on', async () => {
    const h = await harness({ LOGIN_MAX_ATTEMPTS_PER_IP: '2' })
    for (let i = 0; i < 2; i++) await login(h, `x${i}@example.test`, 'whatever-pass', `192.0.2.${i}`)
    expect((await login(h, 'x9@example.test', 'whatever-pass', '192.0.2.99')).status).toBe(429)
  })

  test('the window passes: attempts are admitted again', async () => {
    const h = await harness({ LOGIN_MAX_FAILURES_PER_EMAIL: '2', LOGIN_FAILURE_WINDOW_SECONDS: '1', TRUST_PROXY: 'on' })
    const user = await h.register()
    for (let i = 0; i < 2; i++) await login(h, user.email, 'wrong-password')
    expect((await login(h, user.email, user.password)).status).toBe(429)
    await Bun.sleep(1100)
    expect((await login(h, user.email, user.password)).status).toBe(200)
  })
})

describe('shared through Redis (REDIS_URL)', () => {
  test('two replicas share one failure count', async () => {
    const prefix = crypto.randomUUID()
    const env = { LOGIN_MAX_FAILURES_PER_EMAIL: '3', TRUST_PROXY: 'on', REDIS_URL: 'redis://127.0.0.1:6379' }
    const a = await harness(env)
    const user = await a.register({ email: `shared-${prefix}@example.test` })
    const b = await harness(env)
    await b.register({ email: user.email, password: user.password })
    await login(a, user.email, 'wrong-password')
    await login(b, user.email, 'wrong-password')
    await login(a, user.email, 'wrong-password')
    const blocked = await login(b, user.email, user.password)
    expect(blocked.status).toBe(429)
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0)
    // The counter lives in Redis, not in either process.
    const { RedisClient } = await import('bun')
    const redis = new RedisClient('redis://127.0.0.1:6379')
    expect(Number(await redis.get(`ecobase:rl:login:fail:${user.email.toLowerCase()}`))).toBe(3)
    await redis.del(`ecobase:rl:login:fail:${user.email.toLowerCase()}`)
    redis.close()
  })
})
