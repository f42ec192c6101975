import { afterAll, expect, test } from 'bun:test'
import { freshDatabase, type TestDatabase } from '../support/database'
import { createHarness } from '../support/harness'
import { caller, cleanUp, freePort, start, tempDir, untilHealthy } from '../support/server-process'
import { startSmtp } from '../support/smtp'
import { customerOf, provision } from '../support/tenancy'
import { rejection, until } from '../support/wait'

// A queued e-mail whose server was killed (kill -9) in the middle of the provider call: after the
// restart it goes out within a minute (not after pg-boss's 15-minute expiry), with the Message-ID
// of the first attempt, so a receiver can drop the repeat; the log records one send.

let database: TestDatabase | undefined
afterAll(async () => {
  await cleanUp()
  await database?.drop()
})

test('an e-mail in flight at kill -9 is sent again after the restart, once more at most, with the same Message-ID', async () => {
  const smtp = await startSmtp()
  smtp.state.mode = 'hang'
  database = await freshDatabase()
  const where: Record<string, string> = database.url ? { DATABASE_URL: database.url } : { DATA_DIR: tempDir() }
  const port = freePort()
  const env = {
    ...where,
    PORT: String(port),
    JOBS: 'on',
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Shop <shop@example.test>',
    MESSAGING_TIMEOUT_SECONDS: '120',
    QUEUE_POLL_SECONDS: '1',
  }
  const first = start(env)
  await untilHealthy(port, first, 60_000)
  const call = caller(`http://127.0.0.1:${port}`)

  const owner = (await call('POST', '/auth/register', { body: { email: 'owner@example.test', password: 'crash-password-1', name: 'Owner' } })).body
  const ecosystem = (await call('POST', '/registry/organizations', { token: owner.token, body: { slug: 'crash-shop', name: 'Crash shop' } })).body.ecosystem.id
  const { customerId } = (
    await call('POST', '/customer/resolve', { token: owner.token, ecosystem, body: { externalId: 'ada', email: 'ada@example.test', name: 'Ada' } })
  ).body
  const ada = (await call('POST', '/customer/token', { token: owner.token, ecosystem, body: { customerId } })).body
  expect((await call('PUT', '/notifications/preferences/admin_announcement', { token: ada.token, body: { email: true, sms: false } })).status).toBe(200)
  expect(
    (await call('POST', '/notifications/announcements', { token: owner.token, ecosystem, body: { subject: 'Closing early', body: 'We close at noon.' } }))
      .status,
  ).toBe(202)

  // The provider has the whole message but has not answered: the send is inside the provider call.
  const hung = await until(() => smtp.hung.length > 0, 30_000).then(() => smtp.hung[0]!)
  first.kill('SIGKILL')
  await first.exited
  smtp.state.mode = 'accept'

  const restarted = Date.now()
  const second = start(env)
  await untilHealthy(port, second, 60_000)
  await until(() => smtp.received.length > 0, 60_000)
  expect(Date.now() - restarted).toBeLessThan(60_000)
  const delivered = smtp.received[0]!
  expect(delivered.parsed.subject).toBe('Closing early')
  expect(delivered.parsed.messageId).toBe(hung.parsed.messageId)
  expect(delivered.parsed.messageId).toMatch(/^<[0-9a-f-]{36}@localhost>$/)

  // The server writes the log entry once the provider has answered, after the message arrived here.
  let log = (await call('GET', '/messaging/log', { token: owner.token, ecosystem })).body
  for (let waited = 0; log.items.length === 0 && waited < 10_000; waited += 100) {
    await Bun.sleep(100)
    log = (await call('GET', '/messaging/log', { token: owner.token, ecosystem })).body
  }
  expect(log.items.map((entry: { status: string; recipient: string }) => [entry.status, entry.recipient])).toEqual([['sent', 'ada@example.test']])
  await smtp.close()
}, 180_000)

test('a queued send that went out is not sent again when its job runs again; one that failed is', async () => {
  const smtp = await startSmtp()
  // No workers: the notification's own queued job would deliver it too, at a time of its choosing, and
  // a run beside one of the test's (a loaded machine: it sent twice once) sends twice by design (at
  // least once, the same Message-ID). What is tested is a job that runs again after a send.
  const h = await createHarness({ SMTP_URL: smtp.url, JOBS: 'off' })
  try {
    const owner = await h.register()
    const org = await provision(h, owner)
    const ada = await customerOf(h, org, owner)
    await h.call('PATCH', `/customer/customers/${ada.customerId}`, { ...org.as(owner), body: { email: 'ada@example.test' } })
    const { notifications } = h.app.services
    const id = await h.db.transaction((tx) =>
      notifications.notify(tx, { ecosystemId: org.ecosystem.id, customerId: ada.customerId, type: 'account', subject: 'Your plan', body: 'renews' }),
    )

    smtp.state.mode = 'reject'
    await rejection(notifications.deliver(id, 'email'), 'not delivered')
    smtp.state.mode = 'accept'
    await notifications.deliver(id, 'email')
    await notifications.deliver(id, 'email')

    expect(smtp.received.map((m) => m.parsed.subject)).toEqual(['Your plan'])
    const log: { status: string }[] = (await h.call('GET', '/messaging/log', org.as(owner))).body.items
    expect(log[0]!.status).toBe('sent')
    expect(log.filter((entry) => entry.status === 'sent')).toHaveLength(1)
    expect(log.filter((entry) => entry.status === 'failed')).toHaveLength(1)
  } finally {
    await h.close()
    await smtp.close()
  }
})
