import { generateKeyPairSync } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { dkimVerify } from 'mailauth/lib/dkim/verify'
import Twilio from 'twilio'
import { sql } from 'drizzle-orm'
import { startFakeTwilio } from '../support/fake-twilio'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { startSmtp } from '../support/smtp'
import { customerOf, provision, type Provisioned } from '../support/tenancy'
import { contactCustomer } from './support'

const SID = `AC${'c3'.repeat(16)}`
const TOKEN = 'twilio-auth-token-s3cret-1'
const SMTP_USER = 'mailer'
const SMTP_PASS = 'smtp-pass-s3cret-2'

const instanceSmtp = await startSmtp()
const ecosystemSmtp = await startSmtp({ auth: { user: SMTP_USER, pass: SMTP_PASS } })
const twilio = startFakeTwilio({ accountSid: SID, authToken: TOKEN })

let h: Harness
let owner: RegisteredUser
let org: Provisioned
const bodies: string[] = []
beforeAll(async () => {
  // The ecosystem's own SMTP server is on loopback too: a tenant's server needs the opt-in (the instance's does not).
  h = await createHarness({
    SMTP_URL: instanceSmtp.url,
    MAIL_FROM: 'Acme <no-reply@acme.test>',
    TWILIO_API_URL: twilio.url,
    MESSAGING_TIMEOUT_SECONDS: '1',
    SITE_SERVICE_PRIVATE_ADDRESSES: 'allow',
  })
  owner = await h.register()
  org = await provision(h, owner)
})
afterAll(async () => {
  await h.close()
  await Promise.all([instanceSmtp.close(), ecosystemSmtp.close()])
  twilio.close()
})

const send = async (channel: 'email' | 'sms', body: object, as: { token: string; headers?: Record<string, string> } = org.as(owner)) => {
  const res = await h.call('POST', `/messaging/${channel}`, { ...as, body })
  bodies.push(JSON.stringify(res.body))
  return res
}
const lastLog = async (as = org.as(owner)) => (await h.call('GET', '/messaging/log?pageSize=1', as)).body.items[0]

/** The raw header block of a received mail, folded lines joined. */
const headOf = (raw: string) => raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n(?=[ \t])/g, '')

describe('categories: what customers turned off is not sent', () => {
  test('a template category is a preference category or transactional; other words are refused with the allowed ones', async () => {
    const res = await h.call('POST', '/messaging/templates', {
      ...org.as(owner),
      body: { name: 'promo', subject: 's', htmlBody: 'h', textBody: 't', category: 'marketing' },
    })
    expect(res.status).toBe(400)
    expect(res.body.error.message).toBe(
      'body.category: must be one of "account", "community_reply", "community_mention", "admin_announcement", "transactional"',
    )
  })

  test('an announcement template carries a one-click unsubscribe; once used, the next send is 409 unsubscribed; transactional mail still goes', async () => {
    const reader = await customerOf(h, org, owner)
    const customerId = reader.customerId
    await h.call('PATCH', `/customer/customers/${customerId}`, { ...org.as(owner), body: { email: 'reader@example.test', phone: '+15550100999' } })
    const { body: t } = await h.call('POST', '/messaging/templates', {
      ...org.as(owner),
      body: { name: 'newsletter', subject: 'News', htmlBody: '<p>News</p>', textBody: 'News', category: 'admin_announcement' },
    })
    // Announcements are off until the customer turns them on (e-mail only, here).
    expect((await send('email', { customerId, templateId: t.id })).body.error.code).toBe('unsubscribed')
    await h.call('PUT', '/notifications/preferences/admin_announcement', { token: reader.token, body: { email: true, sms: false } })
    const sms = await send('sms', { customerId, templateId: t.id })
    expect(sms.status).toBe(409)
    expect(sms.body.error).toEqual({ code: 'unsubscribed', message: expect.stringContaining('SMS for admin_announcement') })

    const { body: sent } = await send('email', { customerId, templateId: t.id })
    expect(sent).toMatchObject({ status: 'sent' })
    const mail = instanceSmtp.received.find((m) => m.parsed.messageId === sent.providerId)!
    const head = headOf(mail.raw)
    expect(head).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m)
    const link = new URL(/^List-Unsubscribe: <(\S+)>$/m.exec(head)![1]!)
    const oneClick = await h.app.handle(
      new Request(`http://localhost${link.pathname}${link.search}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      }),
    )
    expect(await oneClick.json()).toEqual({ category: 'admin_announcement', email: false, sms: false })

    const logged = (await h.call('GET', `/messaging/log?customerId=${customerId}`, org.as(owner))).body.total
    const refused = await send('email', { customerId, templateId: t.id })
    expect(refused.status).toBe(409)
    expect(refused.body.error.code).toBe('unsubscribed')
    // Given content says its own category; nothing was sent or logged for the refused ones.
    expect((await send('email', { customerId, subject: 'News', text: 'News', category: 'admin_announcement' })).status).toBe(409)
    expect((await h.call('GET', `/messaging/log?customerId=${customerId}`, org.as(owner))).body.total).toBe(logged)

    const { body: receipt } = await send('email', { customerId, subject: 'Your receipt', text: 'Paid.' })
    expect(receipt.status).toBe('sent')
    const receiptMail = instanceSmtp.received.find((m) => m.parsed.messageId === receipt.providerId)!
    expect(headOf(receiptMail.raw)).not.toContain('List-Unsubscribe')
  })
})

describe('e-mail over SMTP', () => {
  test('a template is rendered, sent to the customer over real SMTP, and logged with the admin as sender', async () => {
    const customerId = await contactCustomer(h, org, owner, { email: 'ada@example.test', name: 'Ada' })
    const { body: t } = await h.call('POST', '/messaging/templates', {
      ...org.as(owner),
      body: {
        name: 'code',
        subject: 'Your code, {{customer.name}}',
        htmlBody: '<p>Code <b>{{code}}</b> for {{who}}</p>',
        textBody: 'Code {{code}} for {{who}}',
        category: 'account',
      },
    })
    const res = await send('email', { customerId, templateId: t.id, variables: { code: '7731', who: '<Ada & co>' } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status: 'sent', providerId: expect.stringMatching(/^<.+@.+>$/) })
    const mail = instanceSmtp.received.at(-1)!
    expect(mail.envelope).toEqual({ from: 'no-reply@acme.test', to: ['ada@example.test'] })
    expect(mail.parsed.subject).toBe('Your code, Ada')
    expect(mail.parsed.from?.value).toEqual([{ name: 'Acme', address: 'no-reply@acme.test' }])
    expect(mail.parsed.to).toMatchObject({ value: [{ address: 'ada@example.test', name: 'Ada' }] })
    expect(mail.parsed.html).toContain('<p>Code <b>7731</b> for &lt;Ada &amp; co&gt;</p>')
    expect(mail.parsed.text?.trim()).toBe('Code 7731 for <Ada & co>')
    expect(mail.parsed.messageId).toBe(res.body.providerId)
    expect(await lastLog()).toEqual({
      id: expect.any(String),
      customerId,
      deletedAt: null,
      ownerId: org.ecosystem.id,
      channel: 'email',
      recipient: 'ada@example.test',
      subject: 'Your code, Ada',
      body: 'Code 7731 for <Ada & co>',
      templateId: t.id,
      status: 'sent',
      providerId: res.body.providerId,
      errorMessage: null,
      sentBy: owner.user.id,
      createdAt: expect.stringMatching(/Z$/),
    })
    expect((await h.call('GET', '/messaging/status', org.as(owner))).body).toEqual({ email: true, sms: false })
  })

  test('given content: html only gets a text part; no header can be injected through subject, variables or address', async () => {
    const customerId = await contactCustomer(h, org, owner, { email: 'bob@example.test' })
    const before = instanceSmtp.received.length
    const res = await send('email', {
      customerId,
      subject: 'Re: {{topic}}',
      html: '<h1>Hi</h1><p>{{topic}}</p>',
      variables: { topic: 'x\r\nBcc: victim@evil.test\r\nX-Evil: 1' },
    })
    expect(res.body.status).toBe('sent')
    const mail = instanceSmtp.received[before]!
    expect(mail.envelope.to).toEqual(['bob@example.test'])
    expect(mail.parsed.subject).toBe('Re: x Bcc: victim@evil.test X-Evil: 1')
    expect(mail.parsed.headers.has('bcc')).toBe(false)
    expect(mail.parsed.headers.has('x-evil')).toBe(false)
    expect(mail.parsed.text).toContain('Hi')
    expect((await send('email', { customerId, subject: 'a\r\nBcc: victim@evil.test', text: 'x' })).status).toBe(400)
    // An address that names two recipients never reaches the server (set past the API's own e-mail check).
    await h.db.execute(sql`update customer.customers set email = 'bob@example.test, victim@evil.test' where id = ${customerId}`)
    const two = await send('email', { customerId, subject: 's', text: 't' })
    expect(two.body).toEqual({ status: 'failed', error: expect.stringContaining('not a plain e-mail address') })
    expect(instanceSmtp.received.length).toBe(before + 1)
  })

  test('a provider refusal, a timeout and bad credentials are status failed with the reason, logged, never a 5xx', async () => {
    const customerId = await contactCustomer(h, org, owner, { email: 'carol@example.test' })
    instanceSmtp.state.mode = 'reject'
    const refused = await send('email', { customerId, subject: 's', text: 't' })
    instanceSmtp.state.mode = 'accept'
    expect(refused.status).toBe(200)
    expect(refused.body).toEqual({ status: 'failed', error: expect.stringContaining('550') })
    expect(await lastLog()).toMatchObject({ status: 'failed', errorMessage: expect.stringContaining('550'), providerId: null })

    instanceSmtp.state.mode = 'hang'
    const started = Date.now()
    const slow = await send('email', { customerId, subject: 's', text: 't' })
    instanceSmtp.state.mode = 'accept'
    expect(slow.body.status).toBe('failed')
    expect(Date.now() - started).toBeLessThan(8000)

    const wrong = await h.call('PUT', '/site/services/mail', {
      ...org.as(owner),
      body: {
        kind: 'smtp',
        enabled: true,
        config: { host: '127.0.0.1', port: ecosystemSmtp.port, user: SMTP_USER, pass: 'wrong-pass-s3cret-3', from: 'Own <own@acme.test>' },
      },
    })
    expect(wrong.status).toBe(200)
    const denied = await send('email', { customerId, subject: 's', text: 't' })
    expect(denied.body).toEqual({ status: 'failed', error: expect.stringContaining('535') })
    await h.call('PUT', '/site/services/mail', {
      ...org.as(owner),
      body: {
        kind: 'smtp',
        enabled: true,
        config: { host: '127.0.0.1', port: ecosystemSmtp.port, user: SMTP_USER, pass: SMTP_PASS, from: 'Own <own@acme.test>' },
      },
    })
    const own = await send('email', { customerId, subject: 'through our own server', text: 't' })
    expect(own.body.status).toBe('sent')
    expect(ecosystemSmtp.received.at(-1)!.parsed.subject).toBe('through our own server')
    await h.call('DELETE', '/site/services/mail', org.as(owner))
  }, 20_000)

  test('an SMTP site service with DKIM settings signs what it sends: an independent verifier (mailauth) passes it, and not once altered', async () => {
    const customerId = await contactCustomer(h, org, owner, { email: 'dkim@example.test', name: 'Dee' })
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
    const dns = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`
    const config = { host: '127.0.0.1', port: ecosystemSmtp.port, user: SMTP_USER, pass: SMTP_PASS, from: 'Acme <news@acme.test>' }
    // All three settings or none, and a key that parses.
    const partial = await h.call('PUT', '/site/services/mail', {
      ...org.as(owner),
      body: { kind: 'smtp', enabled: true, config: { ...config, dkimDomain: 'acme.test' } },
    })
    expect(partial.body.error.message).toContain('dkimDomain, dkimSelector, dkimPrivateKey together')
    const badKey = await h.call('PUT', '/site/services/mail', {
      ...org.as(owner),
      body: { kind: 'smtp', enabled: true, config: { ...config, dkimDomain: 'acme.test', dkimSelector: 'mail', dkimPrivateKey: 'not a key' } },
    })
    expect(badKey.body.error.message).toBe('config.dkimPrivateKey: not a PEM private key')
    const saved = await h.call('PUT', '/site/services/mail', {
      ...org.as(owner),
      body: { kind: 'smtp', enabled: true, config: { ...config, dkimDomain: 'acme.test', dkimSelector: 'mail', dkimPrivateKey: pem } },
    })
    expect(saved.status).toBe(200)
    expect(JSON.stringify(saved.body)).not.toContain('PRIVATE KEY')

    const { body: sent } = await send('email', { customerId, subject: 'Signed', text: 'This one is signed.' })
    expect(sent.status).toBe('sent')
    const raw = ecosystemSmtp.received.find((m) => m.parsed.messageId === sent.providerId)!.raw
    const resolver = async (name: string, type: string) => {
      if (name === 'mail._domainkey.acme.test' && type === 'TXT') return [[dns]]
      throw Object.assign(new Error(`no ${type} record for ${name}`), { code: 'ENOTFOUND' })
    }
    const verified = await dkimVerify(raw, { resolver })
    expect(verified.results.map((r) => [r.signingDomain, r.selector, r.status.result])).toEqual([['acme.test', 'mail', 'pass']])
    const altered = await dkimVerify(raw.replace('This one is signed.', 'This one is forged.'), { resolver })
    // RFC 6376: a body that no longer hashes to bh= does not verify (mailauth says neutral, with why).
    expect(altered.results[0]!.status).toMatchObject({ result: 'neutral', comment: expect.stringContaining('body hash did not verify') })
    await h.call('DELETE', '/site/services/mail', org.as(owner))
  })

  test('a customer without an address is 400 no_recipient; another ecosystem’s customer is 404', async () => {
    const bare = await contactCustomer(h, org, owner, {})
    const res = await send('email', { customerId: bare, subject: 's', text: 't' })
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('no_recipient')
    expect((await send('sms', { customerId: bare, body: 'x' })).body.error.code).toBe('no_recipient')
    const stranger = await h.register()
    const theirs = await provision(h, stranger)
    expect((await send('email', { customerId: bare, subject: 's', text: 't' }, theirs.as(stranger))).status).toBe(404)
    expect((await send('email', { customerId: bare }, org.as(owner))).status).toBe(400)
    const customer = await customerOf(h, org, owner)
    expect((await send('email', { customerId: bare, subject: 's', text: 't' }, { token: customer.token })).status).toBe(403)
  })
})

describe('SMS through the Twilio API', () => {
  test('sent with the ecosystem’s Twilio account; the provider’s errors, timeouts and a bad token are failures with its reason', async () => {
    const put = (authToken: string) =>
      h.call('PUT', '/site/services/sms', {
        ...org.as(owner),
        body: { kind: 'twilio', enabled: true, config: { accountSid: SID, authToken, from: '+15550100009' } },
      })
    await put(TOKEN)
    const customerId = await contactCustomer(h, org, owner, { phone: '+1 (555) 010-0042', name: 'Dan' })
    const sent = await send('sms', { customerId, body: 'Hi {{customer.name}}, code {{code}}', variables: { code: '9' } })
    expect(sent.body).toEqual({ status: 'sent', providerId: expect.stringMatching(/^SM[0-9a-f]{32}$/) })
    const callbackUrl = `${h.deps.config.publicUrl}/messaging/sms/status`
    expect(twilio.received.at(-1)).toEqual({
      accountSid: SID,
      username: SID,
      password: TOKEN,
      form: { To: '+15550100042', From: '+15550100009', Body: 'Hi Dan, code 9', StatusCallback: callbackUrl },
    })
    expect(await lastLog()).toMatchObject({
      channel: 'sms',
      recipient: '+1 (555) 010-0042',
      body: 'Hi Dan, code 9',
      status: 'sent',
      providerId: sent.body.providerId,
      subject: null,
    })
    expect((await h.call('GET', '/messaging/status', org.as(owner))).body.sms).toBe(true)

    // Twilio reports on the message, signed with the account's token (by the twilio SDK's own helper).
    const report = (params: Record<string, string>, token = TOKEN) =>
      h.app.handle(
        new Request(`http://localhost/messaging/sms/status`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': Twilio.getExpectedTwilioSignature(token, callbackUrl, params) },
          body: new URLSearchParams(params).toString(),
        }),
      )
    const sid = sent.body.providerId
    expect((await report({ AccountSid: SID, MessageSid: sid, MessageStatus: 'sent' })).status).toBe(204)
    expect((await lastLog()).status).toBe('sent')
    expect((await report({ AccountSid: SID, MessageSid: sid, MessageStatus: 'delivered' }, 'not-the-token-at-all')).status).toBe(403)
    expect((await lastLog()).status).toBe('sent')
    expect((await report({ AccountSid: SID, MessageSid: sid, MessageStatus: 'delivered' })).status).toBe(204)
    expect((await lastLog()).status).toBe('delivered')
    const second = await send('sms', { customerId, body: 'again' })
    expect((await report({ AccountSid: SID, MessageSid: second.body.providerId, MessageStatus: 'undelivered', ErrorCode: '30003' })).status).toBe(204)
    expect(await lastLog()).toMatchObject({ status: 'undelivered', errorMessage: 'undelivered (Twilio error 30003)' })
    expect((await h.call('GET', '/messaging/log?status=delivered', org.as(owner))).body.items.map((e: { providerId: string }) => e.providerId)).toEqual([sid])

    twilio.state.mode = 'invalid_number'
    const invalid = await send('sms', { customerId, body: 'x' })
    expect(invalid.body).toEqual({ status: 'failed', error: expect.stringContaining('is not a valid phone number') })
    twilio.state.mode = 'hang'
    const slow = await send('sms', { customerId, body: 'x' })
    expect(slow.body.status).toBe('failed')
    twilio.state.mode = 'accept'
    await put('wrong-token-s3cret-value-4')
    const denied = await send('sms', { customerId, body: 'x' })
    expect(denied.body).toEqual({ status: 'failed', error: expect.stringContaining('Authenticate') })
    await h.call('DELETE', '/site/services/sms', org.as(owner))
  }, 20_000)
})

describe('the local outbox and the log', () => {
  test('with no provider anywhere, messages land in the ecosystem’s outbox and status says so', async () => {
    const bare = await createHarness()
    try {
      const admin = await bare.register()
      const eco = await provision(bare, admin)
      const customerId = await contactCustomer(bare, eco, admin, { email: 'eve@example.test', phone: '+15550100077' })
      expect((await bare.call('GET', '/messaging/status', eco.as(admin))).body).toEqual({ email: false, sms: false })
      const mail = await bare.call('POST', '/messaging/email', { ...eco.as(admin), body: { customerId, subject: 'Local', text: 'kept here' } })
      expect(mail.body).toEqual({ status: 'sent', providerId: expect.stringMatching(/^outbox:/) })
      await bare.call('POST', '/messaging/sms', { ...eco.as(admin), body: { customerId, body: 'sms here' } })
      const box = await bare.call('GET', '/messaging/outbox', eco.as(admin))
      expect(box.body.items.map((m: { channel: string; recipient: string; text: string }) => [m.channel, m.recipient, m.text])).toEqual([
        ['sms', '+15550100077', 'sms here'],
        ['email', 'eve@example.test', 'kept here'],
      ])
      const stranger = await bare.register()
      const theirs = await provision(bare, stranger)
      expect((await bare.call('GET', '/messaging/outbox', theirs.as(stranger))).body.total).toBe(0)
    } finally {
      await bare.close()
    }
  })

  test('the log filters by channel, status, customer and time', async () => {
    const customerId = await contactCustomer(h, org, owner, { email: 'filter@example.test', phone: '+15550100055' })
    const since = new Date().toISOString()
    await send('email', { customerId, subject: 's', text: 'one' })
    await send('sms', { customerId, body: 'two' })
    const q = async (query: string) => (await h.call('GET', `/messaging/log?${query}`, org.as(owner))).body
    expect((await q(`customerId=${customerId}`)).items.map((e: { body: string }) => e.body)).toEqual(['two', 'one'])
    expect((await q(`customerId=${customerId}&channel=email`)).items.map((e: { body: string }) => e.body)).toEqual(['one'])
    expect((await q(`customerId=${customerId}&status=failed`)).total).toBe(0)
    expect((await q(`since=${encodeURIComponent(since)}`)).total).toBe(2)
    expect((await q(`until=${encodeURIComponent(since)}`)).items.every((e: { customerId: string }) => e.customerId !== customerId)).toBe(true)
    expect((await h.call('GET', '/messaging/log?since=yesterday', org.as(owner))).status).toBe(400)
    const stranger = await h.register()
    const theirs = await provision(h, stranger)
    expect((await h.call('GET', '/messaging/log', theirs.as(stranger))).body.total).toBe(0)
  })

  test('no provider secret appears in any response or log line', () => {
    const text = [...bodies, ...h.logLines].join('\n')
    for (const secret of [TOKEN, SMTP_PASS, 'wrong-pass-s3cret-3', 'wrong-token-s3cret-value-4']) expect(text).not.toContain(secret)
    expect(h.logLines.some((l) => l.includes('message not sent'))).toBe(true)
  })
})
