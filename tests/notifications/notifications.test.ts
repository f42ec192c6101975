import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import type { NotifyInput } from '../../src/modules/notifications/service'
import { startFakeTwilio } from '../support/fake-twilio'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { startSmtp } from '../support/smtp'
import { customerOf, provision, type Provisioned } from '../support/tenancy'
import { rejection, until } from '../support/wait'

const SID = `AC${'d4'.repeat(16)}`
const TOKEN = 'twilio-auth-token-s3cret-5'
const smtp = await startSmtp()
const twilio = startFakeTwilio({ accountSid: SID, authToken: TOKEN })

let h: Harness
let owner: RegisteredUser
let org: Provisioned
beforeAll(async () => {
  h = await createHarness({ SMTP_URL: smtp.url, TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM: '+15550100001', TWILIO_API_URL: twilio.url })
  owner = await h.register()
  org = await provision(h, owner)
})
afterAll(async () => {
  await h.close()
  await smtp.close()
  twilio.close()
})

/** A customer with a customer token and contact details. */
async function customer(profile: { email?: string; phone?: string } = {}) {
  const c = await customerOf(h, org, owner)
  if (Object.keys(profile).length) await h.call('PATCH', `/customer/customers/${c.customerId}`, { ...org.as(owner), body: profile })
  return { ...c, as: { token: c.token } }
}

const notify = (input: Partial<NotifyInput> & { customerId: string }) =>
  h.db.transaction((tx) =>
    h.app.services.notifications.notify(tx, {
      ecosystemId: org.ecosystem.id,
      type: 'community_reply',
      subject: 'New reply',
      body: 'Someone replied',
      threadId: 't1',
      actorId: 'a1',
      ...input,
    }),
  )
const mailsTo = (address: string) => smtp.received.filter((m) => m.envelope.to.includes(address))

describe('notifications', () => {
  test('a customer lists, reads and reads all of its own notifications only', async () => {
    const me = await customer()
    const other = await customer()
    const first = await notify({ customerId: me.customerId, replyId: 'r1' })
    await notify({ customerId: me.customerId, type: 'community_mention' })
    const theirs = await notify({ customerId: other.customerId })
    const list = await h.call('GET', '/notifications', me.as)
    expect(list.body.total).toBe(2)
    expect(list.body.items[1]).toEqual({
      id: first,
      userId: me.customerId,
      ecosystemId: org.ecosystem.id,
      type: 'community_reply',
      threadId: 't1',
      replyId: 'r1',
      actorId: 'a1',
      subject: 'New reply',
      body: 'Someone replied',
      isRead: false,
      createdAt: expect.stringMatching(/Z$/),
    })
    const read = await h.call('POST', `/notifications/read/${first}`, me.as)
    expect(read.body.isRead).toBe(true)
    expect((await h.call('GET', '/notifications?unread=true', me.as)).body.total).toBe(1)
    expect((await h.call('POST', `/notifications/read/${theirs}`, me.as)).status).toBe(404)
    expect((await h.call('POST', '/notifications/read-all', me.as)).body).toEqual({ updated: 1 })
    expect((await h.call('GET', '/notifications?unread=true', me.as)).body.total).toBe(0)
    expect((await h.call('GET', '/notifications?unread=true', other.as)).body.total).toBe(1)
    const stranger = await h.register()
    const elsewhere = await provision(h, stranger)
    expect((await h.call('POST', `/notifications/read/${theirs}`, elsewhere.as(stranger))).status).toBe(404)
    expect((await h.call('GET', '/notifications')).status).toBe(401)
  })

  test('the unread count is the customer’s own; the list filters by type', async () => {
    const me = await customer()
    const other = await customer()
    const unread = async (who: typeof me) => (await h.call('GET', '/notifications/unread-count', who.as)).body
    expect(await unread(me)).toEqual({ count: 0 })
    const reply = await notify({ customerId: me.customerId })
    await notify({ customerId: me.customerId, type: 'community_mention' })
    await notify({ customerId: other.customerId })
    expect(await unread(me)).toEqual({ count: 2 })
    await h.call('POST', `/notifications/read/${reply}`, me.as)
    expect(await unread(me)).toEqual({ count: 1 })
    expect(await unread(other)).toEqual({ count: 1 })
    const mentions = (await h.call('GET', '/notifications?type=community_mention', me.as)).body
    expect(mentions.items.map((n: { type: string }) => n.type)).toEqual(['community_mention'])
    expect(mentions.total).toBe(1)
    const refused = await h.call('GET', '/notifications?type=marketing', me.as)
    expect(refused.status).toBe(400)
    expect(refused.body.error.code).toBe('validation_failed')
    expect((await h.call('GET', '/notifications/unread-count')).status).toBe(401)
  })

  test('preferences: documented defaults, changed per category', async () => {
    const me = await customer()
    expect((await h.call('GET', '/notifications/preferences', me.as)).body).toEqual([
      { category: 'account', email: true, sms: false },
      { category: 'community_reply', email: true, sms: false },
      { category: 'community_mention', email: false, sms: false },
      { category: 'admin_announcement', email: false, sms: false },
    ])
    const put = await h.call('PUT', '/notifications/preferences/community_mention', { ...me.as, body: { email: true, sms: true } })
    expect(put.body).toEqual({ category: 'community_mention', email: true, sms: true })
    expect((await h.call('GET', '/notifications/preferences', me.as)).body[2]).toEqual(put.body)
    expect((await h.call('PUT', '/notifications/preferences/marketing', { ...me.as, body: { email: true, sms: true } })).status).toBe(400)
  })

  test('the preference decides the e-mail and SMS copies, delivered by the queue with a one-click unsubscribe', async () => {
    const me = await customer({ email: 'pref@example.test', phone: '+15550100123' })
    await h.call('PUT', '/notifications/preferences/community_mention', { ...me.as, body: { email: false, sms: true } })
    await notify({ customerId: me.customerId, subject: 'You were mentioned', body: 'in a thread', type: 'community_mention' })
    await notify({ customerId: me.customerId, subject: 'A reply <3', body: 'Line one\n<b>two</b>' })
    await until(() => mailsTo('pref@example.test').length === 1 && twilio.received.some((r) => r.form.To === '+15550100123'))
    expect(twilio.received.find((r) => r.form.To === '+15550100123')!.form.Body).toBe('You were mentioned: in a thread')
    const mail = mailsTo('pref@example.test')[0]!
    expect(mail.parsed.subject).toBe('A reply <3')
    expect(mail.parsed.html).toContain('Line one<br>&lt;b&gt;two&lt;/b&gt;')
    const head = mail.raw.slice(0, mail.raw.indexOf('\r\n\r\n')).replace(/\r\n(?=[ \t])/g, '')
    const link = /^List-Unsubscribe: <(\S+)>$/m.exec(head)
    expect(head).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m)
    expect(link).not.toBeNull()
    const url = new URL(link![1]!)
    expect(url.pathname).toBe('/notifications/unsubscribe')
    expect(mail.parsed.text).toContain(url.href)

    const page = await h.app.handle(new Request(`http://localhost${url.pathname}${url.search}`))
    expect(page.headers.get('content-type')).toContain('text/html')
    expect(await page.text()).toContain('<form method="post"')
    expect((await h.call('GET', '/notifications/preferences', me.as)).body[1].email).toBe(true)

    const oneClick = await h.app.handle(
      new Request(`http://localhost${url.pathname}${url.search}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      }),
    )
    expect(oneClick.status).toBe(200)
    expect(await oneClick.json()).toEqual({ category: 'community_reply', email: false, sms: false })
    expect((await h.call('GET', '/notifications/preferences', me.as)).body[1]).toEqual({ category: 'community_reply', email: false, sms: false })
    await notify({ customerId: me.customerId, subject: 'Another reply', body: 'x' })
    await Bun.sleep(1500)
    expect(mailsTo('pref@example.test').length).toBe(1)
    const log = await h.call('GET', `/messaging/log?customerId=${me.customerId}`, org.as(owner))
    expect(log.body.items.map((e: { channel: string; status: string; sentBy: string | null }) => [e.channel, e.status, e.sentBy]).sort()).toEqual([
      ['email', 'sent', null],
      ['sms', 'sent', null],
    ])
  }, 20_000)

  test('a forged or altered unsubscribe token is 400', async () => {
    const me = await customer()
    const url = new URL(h.app.services.notifications.unsubscribeUrl(me.customerId, 'account'))
    const forged = url.searchParams.get('token')!.replace('.account.', '.community_reply.')
    for (const token of [forged, 'x', `${me.customerId}.account.AAAA`]) {
      const res = await h.call('POST', `/notifications/unsubscribe?token=${encodeURIComponent(token)}`)
      expect(res.status, token).toBe(400)
      expect(res.body.error.code).toBe('invalid_token')
    }
  })

  test('a notification written in a transaction that rolls back leaves no row and sends nothing', async () => {
    const me = await customer({ email: 'rollback@example.test' })
    await rejection(
      h.db.transaction(async (tx) => {
        await h.app.services.notifications.notify(tx, { ecosystemId: org.ecosystem.id, customerId: me.customerId, type: 'account', subject: 'x', body: 'y' })
        throw new Error('the change failed')
      }),
      'the change failed',
    )
    await Bun.sleep(1500)
    expect((await h.call('GET', '/notifications', me.as)).body.total).toBe(0)
    expect(mailsTo('rollback@example.test')).toEqual([])
  })

  test('a provider failure is retried by the queue, each attempt logged', async () => {
    const me = await customer({ email: 'retry@example.test' })
    smtp.state.mode = 'reject'
    await notify({ customerId: me.customerId, type: 'account', subject: 'Retry me', body: 'x' })
    const log = async () => (await h.call('GET', `/messaging/log?customerId=${me.customerId}`, org.as(owner))).body.items as { status: string }[]
    await until(async () => (await log()).length >= 1)
    smtp.state.mode = 'accept'
    await until(async () => (await log()).some((e) => e.status === 'sent'), 20_000)
    expect((await log()).map((e) => e.status)).toEqual(['sent', 'failed'])
    expect(mailsTo('retry@example.test').length).toBe(1)
  }, 30_000)
})

describe('reply e-mails', () => {
  test('at most one e-mail per thread per customer in 15 minutes: later replies arrive together in one digest at the window’s end', async () => {
    const me = await customer({ email: 'digest@example.test' })
    const thread = `thread-${crypto.randomUUID()}`
    await notify({ customerId: me.customerId, threadId: thread, subject: 'New reply to “Plans”', body: 'first reply' })
    await until(() => mailsTo('digest@example.test').length === 1)
    await notify({ customerId: me.customerId, threadId: thread, subject: 'New reply to “Plans”', body: 'second reply' })
    await notify({ customerId: me.customerId, threadId: thread, subject: 'New reply to “Plans”', body: 'third reply' })
    // Another thread has its own window.
    await notify({ customerId: me.customerId, threadId: `${thread}-other`, subject: 'New reply to “Other”', body: 'elsewhere' })
    await until(() => mailsTo('digest@example.test').length === 2)
    await Bun.sleep(500)
    expect(mailsTo('digest@example.test').map((m) => m.parsed.subject)).toEqual(['New reply to “Plans”', 'New reply to “Other”'])
    // In the app every reply is there at once.
    expect((await h.call('GET', '/notifications?type=community_reply', me.as)).body.total).toBe(4)

    // The window ends (the digest was queued for then): one e-mail with both later replies.
    await h.db.execute(sql`update pgboss.job set start_after = now() where name = 'reply-email-digest' and state = 'created'`)
    await until(() => mailsTo('digest@example.test').length === 3, 15_000)
    const digest = mailsTo('digest@example.test')[2]!
    expect(digest.parsed.subject).toBe('2 new replies: New reply to “Plans”')
    expect(digest.parsed.text).toContain('second reply')
    expect(digest.parsed.text).toContain('third reply')
    expect(digest.raw).toMatch(/List-Unsubscribe-Post: List-Unsubscribe=One-Click/)

    // A reply after the window is e-mailed at once again.
    h.advanceClock(16 * 60 * 1000)
    try {
      await notify({ customerId: me.customerId, threadId: thread, subject: 'New reply to “Plans”', body: 'much later' })
      await until(() => mailsTo('digest@example.test').length === 4)
      expect(mailsTo('digest@example.test')[3]!.parsed.text).toContain('much later')
    } finally {
      h.advanceClock(-16 * 60 * 1000)
    }
  }, 30_000)
})
