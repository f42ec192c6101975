import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { startReceiver } from '../support/receiver'
import { provision, type Provisioned } from '../support/tenancy'
import { until } from '../support/wait'

// The monitored-site example of docs/areas/monitored_sites.md, run as written (its url pointed at a local server that fails).
const DOC = readFileSync(join(import.meta.dir, '..', '..', 'docs', 'areas', 'monitored_sites.md'), 'utf8')
const block = DOC.split('tests/monitored_sites/readme-alerts.test.ts runs it')[1]!.split('```')[1]!
const [request, json] = block.trim().split('\n')
const example = JSON.parse(json!) as { name: string; url: string; alertEmails: string[] }

const receiver = startReceiver()
let h: Harness
let owner: RegisteredUser
let org: Provisioned
beforeAll(async () => {
  h = await createHarness({ MONITORED_SITES_PRIVATE_ADDRESSES: 'allow' })
  owner = await h.register()
  org = await provision(h, owner)
})
afterAll(async () => {
  await h.close()
  receiver.close()
})

test('the documented site alerts: two failed checks make it down, and the admins and alertEmails are e-mailed, in the messaging log', async () => {
  const [method, path] = request!.split(' ')
  receiver.plan.set('/health', ['down', 'down'])
  const created = await h.call(method as 'POST', path!, { ...org.as(owner), body: { ...example, url: `${receiver.url}/health` } })
  expect(created.status).toBe(201)
  for (let i = 0; i < 2; i++) await h.call('POST', `/monitored_sites/sites/${created.body.id}/check`, org.as(owner))
  expect((await h.call('GET', `/monitored_sites/sites/${created.body.id}`, org.as(owner))).body.state).toBe('down')
  const subject = `${example.name} is down: answered 503, expected 200`
  expect(DOC).toContain(`"${subject.replace(example.name, 'Shop')}"`)
  const sent = async () =>
    (await h.call('GET', '/messaging/log?pageSize=100', org.as(owner))).body.items
      .filter((e: { subject: string | null; status: string }) => e.subject === subject && e.status === 'sent')
      .map((e: { recipient: string }) => e.recipient)
      .sort()
  await until(async () => (await sent()).length >= 2)
  expect(await sent()).toEqual([owner.email, ...example.alertEmails].sort())
})
