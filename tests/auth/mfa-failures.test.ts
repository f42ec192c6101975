import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { stored } from '../audit/support'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { mfaKit } from '../support/mfa'
import { startSmtp } from '../support/smtp'
import { until } from '../support/wait'

// Wrong second-factor answers, counted per account over a sliding window whichever session gives
// them, and told to the owner once per window with their count. A well-formed recovery code that was
// never issued is the wrong answer: it can never be right by chance, as a six-digit code could.

const WRONG = { recoveryCode: 'aaaa-aaaa' }
const smtp = await startSmtp()
let h: Harness
let mfa: ReturnType<typeof mfaKit>
beforeAll(async () => {
  h = await createHarness({ SMTP_URL: smtp.url, MAIL_FROM: 'Ecobase <accounts@example.test>' })
  mfa = mfaKit(h)
})
afterAll(async () => {
  await h.close()
  await smtp.close()
})

const wrong = async (session: { token: string }) => {
  const res = await h.call('POST', '/auth/mfa/verify', { token: session.token, body: WRONG })
  return { status: res.status, retryAfter: Number(res.headers.get('retry-after') ?? 0) }
}
const statuses = async (session: { token: string }, n: number) => {
  const out: number[] = []
  for (let i = 0; i < n; i++) out.push((await wrong(session)).status)
  return out
}

describe('wrong second-factor answers', () => {
  test('a success from another session does not erase the count: the eleventh wrong answer in the window is 429', async () => {
    const owner = await h.register()
    const { secret } = await mfa.enrol(owner)
    const attacker = await mfa.login(owner)
    expect(await statuses(attacker, 9)).toEqual(Array(9).fill(400))
    // The owner signs in meanwhile and verifies a code.
    expect((await mfa.strong(owner, secret)).token).toBeString()
    expect(await statuses(attacker, 1)).toEqual([400])
    const limited = await wrong(attacker)
    expect(limited.status).toBe(429)
    expect(limited.retryAfter).toBeGreaterThan(800)
    expect(limited.retryAfter).toBeLessThanOrEqual(900)
    // The owner's own right code is held back too until the window moves on (the account is being guessed).
    const owners = await h.call('POST', '/auth/mfa/verify', { token: (await mfa.login(owner)).token, body: { code: mfa.code(secret) } })
    expect(owners.status).toBe(429)
    expect((await stored(h, 'auth.mfa.failed')).filter((r) => r.targetId === owner.user.id)).toHaveLength(10)
  })

  test('answers given at once are counted one after another: of fourteen, ten are wrong and four are 429', async () => {
    const owner = await h.register()
    await mfa.enrol(owner)
    const sessions = await Promise.all([1, 2].map(() => mfa.login(owner)))
    const all = await Promise.all(Array.from({ length: 14 }, (_, i) => wrong(sessions[i % 2]!)))
    expect(all.map((r) => r.status).sort()).toEqual([...Array(10).fill(400), ...Array(4).fill(429)])
    expect((await stored(h, 'auth.mfa.failed')).filter((r) => r.targetId === owner.user.id)).toHaveLength(10)
  })

  test('the window slides: answers leave it one by one as they age, not all at once at a boundary', async () => {
    const owner = await h.register()
    await mfa.enrol(owner)
    const attacker = await mfa.login(owner)
    expect(await statuses(attacker, 5)).toEqual(Array(5).fill(400))
    h.advanceClock(500_000)
    const again = await mfa.login(owner)
    expect(await statuses(again, 5)).toEqual(Array(5).fill(400))
    const full = await wrong(again)
    // The first five leave the window 900 s after they came, 400 s from now.
    expect([full.status, full.retryAfter > 390 && full.retryAfter <= 400]).toEqual([429, true])
    h.advanceClock(450_000)
    // 950 s after the first five: they are out, the other five are in. A fixed window would have started afresh.
    const later = await mfa.login(owner)
    expect(await statuses(later, 6)).toEqual([...Array(5).fill(400), 429])
  })
})

describe('the owner is told once per window, with the count', () => {
  let quick: Harness
  beforeAll(async () => {
    quick = await createHarness({ SMTP_URL: smtp.url, MAIL_FROM: 'Ecobase <accounts@example.test>', LOGIN_FAILURE_WINDOW_SECONDS: '6' })
  })
  afterAll(() => quick.close())

  test('three wrong answers from two sessions: one e-mail as the window closes, saying three', async () => {
    const kit = mfaKit(quick)
    const owner: RegisteredUser = await quick.register()
    await kit.enrol(owner)
    const [a, b] = [await kit.login(owner), await kit.login(owner)]
    for (const session of [a, b, a]) expect((await quick.call('POST', '/auth/mfa/verify', { token: session.token, body: WRONG })).status).toBe(400)
    const notices = () => smtp.received.filter((m) => m.envelope.to.includes(owner.email.toLowerCase()) && m.parsed.subject?.includes('wrong second-factor'))
    // Nothing is sent per attempt: the e-mail waits for the window to close.
    expect(notices()).toHaveLength(0)
    await until(() => notices().length > 0, 20_000)
    expect(notices().map((m) => m.parsed.subject)).toEqual(['Account security: 3 wrong second-factor answers were given for your account'])
    expect(notices()[0]!.parsed.text).toContain('3 wrong second-factor answers were given for your account between')
    // The audit log keeps each one.
    expect((await stored(quick, 'auth.mfa.failed')).filter((r) => r.targetId === owner.user.id)).toHaveLength(3)
  }, 30_000)
})
