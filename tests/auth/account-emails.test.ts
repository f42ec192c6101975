import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHarness, type Harness } from '../support/harness'
import { startSmtp } from '../support/smtp'
import { until } from '../support/wait'

const smtp = await startSmtp()
let h: Harness
beforeAll(async () => {
  h = await createHarness({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Ecobase <accounts@example.test>',
    PASSWORD_RESET_URL: 'https://app.example.test/reset?token={token}',
  })
})
afterAll(async () => {
  await h.close()
  await smtp.close()
})

const mailsTo = (address: string) => smtp.received.filter((m) => m.envelope.to.includes(address.toLowerCase()))
const linkToken = (text: string) => new URL(/https:\/\/app\.example\.test\/reset\S+/.exec(text)![0]).searchParams.get('token')!

describe('password reset', () => {
  test('a mailed single-use link sets a new password and ends every session', async () => {
    const user = await h.register()
    const res = await h.call('POST', '/auth/password-reset/request', { body: { email: user.email.toUpperCase() } })
    expect(res.status).toBe(202)
    await until(() => mailsTo(user.email).length === 1)
    const mail = mailsTo(user.email)[0]!
    expect(mail.parsed.subject).toBe('Reset your password')
    const token = linkToken(mail.parsed.text!)
    expect(mail.parsed.text).toContain('expires in 30 minutes')

    const short = await h.call('POST', '/auth/password-reset/confirm', { body: { token, newPassword: 'short' } })
    expect(short.status).toBe(400)
    const done = await h.call('POST', '/auth/password-reset/confirm', { body: { token, newPassword: 'a-brand-new-password' } })
    expect(done.status).toBe(204)
    expect((await h.call('GET', '/auth/me', { token: user.token })).status).toBe(401)
    expect((await h.call('POST', '/auth/refresh', { body: { refreshToken: user.refreshToken } })).status).toBe(401)
    expect((await h.call('POST', '/auth/login', { body: { email: user.email, password: user.password } })).status).toBe(401)
    const login = await h.call('POST', '/auth/login', { body: { email: user.email, password: 'a-brand-new-password' } })
    expect(login.status).toBe(200)
    expect((await h.call('GET', '/auth/me', { token: login.body.token })).body.emailVerified).toBe(true)
    const again = await h.call('POST', '/auth/password-reset/confirm', { body: { token, newPassword: 'another-new-password' } })
    expect(again.status).toBe(400)
    expect(again.body.error.code).toBe('invalid_token')
    // The owner is told, at the account's address.
    await until(() => mailsTo(user.email).some((m) => m.parsed.subject === 'Your password was changed'))
    const notice = mailsTo(user.email).find((m) => m.parsed.subject === 'Your password was changed')!
    expect(notice.parsed.text).toContain('reset with a link sent to this address')
    expect(notice.parsed.text).not.toContain(token)
  })

  test('a password changed while signed in is told by e-mail; a refused change tells no one', async () => {
    const user = await h.register()
    const wrong = await h.call('POST', '/auth/change-password', {
      token: user.token,
      body: { currentPassword: 'not-the-password', newPassword: 'a-changed-password' },
    })
    expect(wrong.status).toBe(401)
    const changed = await h.call('POST', '/auth/change-password', {
      token: user.token,
      body: { currentPassword: user.password, newPassword: 'a-changed-password' },
    })
    expect(changed.status).toBe(204)
    await until(() => mailsTo(user.email).length >= 1)
    await Bun.sleep(500)
    const notices = mailsTo(user.email).filter((m) => m.parsed.subject === 'Your password was changed')
    expect(notices).toHaveLength(1)
    expect(notices[0]!.parsed.text).toContain('changed while signed in')
  })

  test('an unknown address gets the same 202 and no e-mail', async () => {
    const before = smtp.received.length
    const res = await h.call('POST', '/auth/password-reset/request', { body: { email: 'nobody@example.test' } })
    expect(res.status).toBe(202)
    expect(res.body).toEqual({})
    await Bun.sleep(1500)
    expect(smtp.received.length).toBe(before)
  })

  test('a token expires after 30 minutes', async () => {
    const user = await h.register()
    await h.call('POST', '/auth/password-reset/request', { body: { email: user.email } })
    await until(() => mailsTo(user.email).length === 1)
    const token = linkToken(mailsTo(user.email)[0]!.parsed.text!)
    h.advanceClock(31 * 60 * 1000)
    try {
      const res = await h.call('POST', '/auth/password-reset/confirm', { body: { token, newPassword: 'a-brand-new-password' } })
      expect(res.status).toBe(400)
    } finally {
      h.advanceClock(-31 * 60 * 1000)
    }
  })

  test('requests for one address are limited, known or not', async () => {
    for (const email of ['limited@example.test', (await h.register()).email]) {
      const statuses: number[] = []
      for (let i = 0; i < 6; i++) statuses.push((await h.call('POST', '/auth/password-reset/request', { body: { email } })).status)
      expect(statuses).toEqual([202, 202, 202, 202, 202, 429])
    }
  })
})

describe('e-mail verification', () => {
  test('the signed-in account gets a code by e-mail; confirming it shows emailVerified on /auth/me', async () => {
    const user = await h.register()
    expect((await h.call('GET', '/auth/me', { token: user.token })).body.emailVerified).toBe(false)
    expect((await h.call('POST', '/auth/verify-email/request')).status).toBe(401)
    expect((await h.call('POST', '/auth/verify-email/request', { token: user.token })).status).toBe(202)
    await until(() => mailsTo(user.email).length === 1)
    const text = mailsTo(user.email)[0]!.parsed.text!
    const token = /use this code:\n(\S+)/.exec(text)![1]!
    expect((await h.call('POST', '/auth/verify-email/confirm', { body: { token: `${token}x` } })).status).toBe(400)
    expect((await h.call('POST', '/auth/password-reset/confirm', { body: { token, newPassword: 'a-brand-new-password' } })).status).toBe(400)
    const ok = await h.call('POST', '/auth/verify-email/confirm', { body: { token } })
    expect(ok.body).toEqual({ emailVerified: true })
    expect((await h.call('GET', '/auth/me', { token: user.token })).body).toMatchObject({ id: user.user.id, emailVerified: true })
    expect((await h.call('POST', '/auth/verify-email/confirm', { body: { token } })).status).toBe(400)
  })
})

test('with no SMTP_URL the mail waits in the instance outbox, readable by platform admins only', async () => {
  const bare = await createHarness()
  try {
    const admin = await bare.register()
    const user = await bare.register()
    await bare.call('POST', '/auth/password-reset/request', { body: { email: user.email } })
    const outbox = async () => (await bare.call('GET', '/messaging/outbox/instance', { token: admin.token })).body
    await until(async () => (await outbox()).total === 1)
    expect((await outbox()).items[0]).toMatchObject({ channel: 'email', recipient: user.email, subject: 'Reset your password' })
    expect((await bare.call('GET', '/messaging/outbox/instance', { token: user.token })).status).toBe(403)
  } finally {
    await bare.close()
  }
})
