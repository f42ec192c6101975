import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import Twilio from 'twilio'
import { startFakeTwilio } from '../support/fake-twilio'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { provision, type Provisioned } from '../support/tenancy'
import { contactCustomer } from './support'

// The SMS delivery states of docs/areas/messaging.md, each report posted as Twilio would (signed by the twilio SDK's helper).
const DOC = readFileSync(join(import.meta.dir, '..', '..', 'docs', 'areas', 'messaging.md'), 'utf8')
const block = DOC.split('tests/messaging/readme-delivery.test.ts runs these')[1]!.split('```')[1]!
const steps = block
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line.startsWith('MessageStatus='))
  .map((line) => {
    const [, report, forged, status, entry, error] = /^(\S+?)(, signed with another token)?\s+→ (\d+), the entry (?:stays |is )(\w+)(?:: "(.+)")?/.exec(line)!
    return { report: report!, forged: Boolean(forged), status: Number(status), entry: entry === 'unchanged' ? null : entry!, error: error ?? null }
  })

const SID = `AC${'e5'.repeat(16)}`
const TOKEN = 'twilio-auth-token-s3cret-7'
const twilio = startFakeTwilio({ accountSid: SID, authToken: TOKEN })
let h: Harness
let owner: RegisteredUser
let org: Provisioned
beforeAll(async () => {
  h = await createHarness({ TWILIO_API_URL: twilio.url })
  owner = await h.register()
  org = await provision(h, owner)
  await h.call('PUT', '/site/services/sms', {
    ...org.as(owner),
    body: { kind: 'twilio', enabled: true, config: { accountSid: SID, authToken: TOKEN, from: '+15550100009' } },
  })
})
afterAll(async () => {
  await h.close()
  twilio.close()
})

test('docs/areas/messaging.md lists the delivery states', () => expect(steps.length).toBe(4))

test('each documented report moves the log entry as written', async () => {
  const customerId = await contactCustomer(h, org, owner, { phone: '+15550100077' })
  const sent = await h.call('POST', '/messaging/sms', { ...org.as(owner), body: { customerId, body: 'hello' } })
  const sid = sent.body.providerId as string
  const url = `${h.deps.config.publicUrl}/messaging/sms/status`
  let previous = 'sent'
  for (const step of steps) {
    const params = { AccountSid: SID, MessageSid: sid, ...Object.fromEntries(new URLSearchParams(step.report)) }
    const signature = Twilio.getExpectedTwilioSignature(step.forged ? 'another-token-entirely' : TOKEN, url, params)
    const res = await h.app.handle(
      new Request('http://localhost/messaging/sms/status', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
        body: new URLSearchParams(params).toString(),
      }),
    )
    expect(res.status, step.report).toBe(step.status)
    const entry = (await h.call('GET', '/messaging/log?channel=sms', org.as(owner))).body.items.find((e: { providerId: string }) => e.providerId === sid)
    expect(entry.status, step.report).toBe(step.entry ?? previous)
    if (step.error) expect(entry.errorMessage).toBe(step.error)
    previous = entry.status
  }
})
