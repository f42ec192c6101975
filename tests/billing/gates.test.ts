import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { CHAT_MESSAGES, STORAGE_BYTES } from '../../src/platform/entitlements'
import { parseFrames } from '../chat/support'
import { bytesOf, storageApp, type StorageApp } from '../support/storage'
import { customerOf, provision } from '../support/tenancy'

// One gate for every path that consumes: the OpenAPI document is walked for every operation that
// stores bytes (hands out an upload URL, or counts bytes against the storage quota) or produces a
// model reply (streams `token` events); each must declare 402 `entitlement_exceeded`, and each is
// driven below to its plan's limit and must refuse past it.

const doc = JSON.parse(readFileSync(join(import.meta.dir, '..', '..', 'openapi.json'), 'utf8'))

let s: StorageApp
beforeAll(async () => {
  s = await storageApp('local', { STORAGE_PENDING_TTL_SECONDS: '3600' })
})
afterAll(() => s.close())

type Reply = { status: number; body: any }

/** A fresh ecosystem whose default plan grants `entitlements`, and one of its customers. */
async function customerOn(entitlements: { feature: string; limit: number }[]) {
  const eco = await provision(s.h, s.owner)
  const admin = eco.as(s.owner)
  expect((await s.h.call('POST', '/billing/plans', { ...admin, body: { key: 'std', name: 'Standard', isDefault: true, entitlements } })).status).toBe(201)
  const customer = await customerOf(s.h, eco, s.owner)
  const creds = { token: customer.token }
  const use = async (feature: string) => (await s.h.call('GET', '/billing/me', creds)).body.entitlements.find((e: { feature: string }) => e.feature === feature)
  /** Moves the app's clock past STORAGE_PENDING_TTL_SECONDS; the owner and the customer sign in again (their tokens expired). */
  const pendingExpire = async () => {
    s.h.advanceClock(3601 * 1000)
    s.owner.token = (await s.h.call('POST', '/auth/login', { body: { email: s.owner.email, password: s.owner.password } })).body.token
    creds.token = (await s.h.call('POST', '/customer/token', { ...eco.as(s.owner), body: { customerId: customer.customerId } })).body.token
  }
  return { eco, customer, creds, use, pendingExpire }
}

/** A streamed chat call, read to its end: the status, and the events when it streamed. */
async function stream(path: string, token: string, body?: unknown): Promise<Reply & { events: string[] }> {
  const res = await s.h.app.handle(
    new Request(`http://localhost${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  )
  const text = await res.text()
  const streamed = res.headers.get('content-type')?.startsWith('text/event-stream')
  return { status: res.status, body: streamed ? null : JSON.parse(text), events: streamed ? parseFrames(text).map((e) => e.event) : [] }
}

const file = (n: number, size: number) => bytesOf(String(n).padEnd(size, '.'))

/** For each consuming operation: brings a customer to its limit through it, and returns the call past the limit. */
const DRIVERS: Record<string, () => Promise<Reply>> = {
  async 'POST /storage/uploads'() {
    // Two uploads started before either completes: the first reserves its bytes.
    const { creds, use } = await customerOn([{ feature: STORAGE_BYTES, limit: 1000 }])
    expect((await s.presign(file(1, 600), {}, creds)).status).toBe(201)
    const refused = await s.presign(file(2, 600), {}, creds)
    expect(refused.body).toMatchObject({ feature: STORAGE_BYTES, limit: 1000, used: 600, requested: 600 })
    expect(await use(STORAGE_BYTES)).toMatchObject({ used: 0, limit: 1000 })
    return refused
  },
  async 'POST /storage/attachments/{id}/complete'() {
    // An upload whose reservation expired while another took its bytes is refused when it completes.
    const { creds, use, pendingExpire } = await customerOn([{ feature: STORAGE_BYTES, limit: 1000 }])
    const late = await s.presign(file(3, 600), {}, creds)
    expect((await s.put(late.body, file(3, 600))).status).toBe(200)
    await pendingExpire()
    await s.upload(file(4, 600), {}, creds)
    const refused = await s.complete(late.body.attachment.id, creds)
    expect(await use(STORAGE_BYTES)).toMatchObject({ used: 600, limit: 1000 })
    expect((await s.h.call('GET', `/storage/attachments/${late.body.attachment.id}`, creds)).body.attachment.status).toBe('pending')
    return refused
  },
  async 'POST /chat/conversations/{id}/messages'() {
    const { creds, use } = await customerOn([{ feature: CHAT_MESSAGES, limit: 1 }])
    const { body: conversation } = await s.h.call('POST', '/chat/conversations', { ...creds, body: {} })
    expect((await stream(`/chat/conversations/${conversation.id}/messages`, creds.token, { message: 'one' })).events.at(-1)).toBe('done')
    const refused = await stream(`/chat/conversations/${conversation.id}/messages`, creds.token, { message: 'two' })
    expect(await use(CHAT_MESSAGES)).toMatchObject({ used: 1, limit: 1 })
    // The refused message is not stored: the conversation holds the first turn only.
    const { messages } = (await s.h.call('GET', `/chat/conversations/${conversation.id}`, creds)).body
    expect(messages.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
      ['user', 'one'],
      ['assistant', expect.any(String)],
    ])
    return refused
  },
  async 'POST /chat/conversations/{id}/regenerate'() {
    // A send, a regenerate: two replies, the limit. Then neither a regenerate nor an edit and a regenerate gives a third.
    const { creds, use } = await customerOn([{ feature: CHAT_MESSAGES, limit: 2 }])
    const { body: conversation } = await s.h.call('POST', '/chat/conversations', { ...creds, body: {} })
    const path = `/chat/conversations/${conversation.id}`
    expect((await stream(`${path}/messages`, creds.token, { message: 'one' })).events.at(-1)).toBe('done')
    expect((await stream(`${path}/regenerate`, creds.token)).events.at(-1)).toBe('done')
    expect(await use(CHAT_MESSAGES)).toMatchObject({ used: 2, limit: 2 })
    expect((await stream(`${path}/messages`, creds.token, { message: 'two' })).status).toBe(402)
    const before = (await s.h.call('GET', path, creds)).body.messages
    expect((await stream(`${path}/regenerate`, creds.token)).status).toBe(402)
    // The refused regenerate dropped nothing.
    expect((await s.h.call('GET', path, creds)).body.messages).toEqual(before)
    const user = before.find((m: { role: string }) => m.role === 'user')
    expect((await s.h.call('PATCH', `${path}/messages/${user.id}`, { ...creds, body: { content: 'one, edited' } })).status).toBe(200)
    const refused = await stream(`${path}/regenerate`, creds.token)
    expect(await use(CHAT_MESSAGES)).toMatchObject({ used: 2, limit: 2 })
    expect((await s.h.call('GET', path, creds)).body.messages.filter((m: { role: string }) => m.role === 'assistant')).toEqual([])
    return refused
  },
}

type Operation = { responses: Record<string, { content?: Record<string, { schema?: unknown }>; description?: string }> }
const json = (x: unknown) => JSON.stringify(x) ?? ''
/** Follows `$ref`s into the components, so a schema's text shows what it is made of. */
function expand(node: unknown, depth = 0): unknown {
  if (depth > 12 || !node || typeof node !== 'object') return node
  if (Array.isArray(node)) return node.map((n) => expand(n, depth + 1))
  const ref = (node as { $ref?: string }).$ref
  if (ref) return expand(doc.components.schemas[ref.split('/').pop()!], depth + 1)
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, expand(v, depth + 1)]))
}

/** The operations that store bytes or produce a model reply, by what the document says they answer. */
function consuming(): string[] {
  const found: string[] = []
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, Operation>>)) {
    for (const [method, op] of Object.entries(methods)) {
      const answers = Object.entries(op.responses)
      const ok = answers.filter(([status]) => /^2/.test(status))
      const uploadUrl = ok.some(([, r]) => json(expand(r.content)).includes('"uploadUrl"'))
      const countsBytes = answers.some(([, r]) => json(expand(r.content)).includes('"title":"StorageQuotaExceeded"'))
      const reply = ok.some(([, r]) => r.content?.['text/event-stream'] && json(expand(r.content['text/event-stream'].schema)).includes('"const":"token"'))
      if (uploadUrl || countsBytes || reply) found.push(`${method.toUpperCase()} ${path}`)
    }
  }
  return found.sort()
}

describe('one gate for every consuming path', () => {
  test('the document’s operations that store bytes or produce a model reply: each has a driver here and declares 402 entitlement_exceeded', () => {
    const found = consuming()
    expect(found).toEqual(Object.keys(DRIVERS).sort())
    for (const op of found) {
      const [method, path] = op.split(' ') as [string, string]
      const payment = (doc.paths[path][method.toLowerCase()] as Operation).responses['402']
      expect({ op, declares: payment?.description?.includes('entitlement_exceeded') ?? false }).toEqual({ op, declares: true })
    }
  })

  for (const op of Object.keys(DRIVERS)) {
    test(`${op}: past the plan's limit it answers 402 entitlement_exceeded and consumes nothing`, async () => {
      const refused = await DRIVERS[op]!()
      expect([refused.status, refused.body?.error?.code]).toEqual([402, 'entitlement_exceeded'])
    })
  }
})

describe('storage.bytes reservations', () => {
  test('a pending upload’s bytes are given back when it is deleted or expires; concurrent presigns never pass the limit', async () => {
    const { creds, use, pendingExpire } = await customerOn([{ feature: STORAGE_BYTES, limit: 10_000 }])
    const first = await s.presign(file(10, 6000), {}, creds)
    expect((await s.presign(file(11, 6000), {}, creds)).status).toBe(402)
    expect((await s.h.call('DELETE', `/storage/attachments/${first.body.attachment.id}`, creds)).status).toBe(204)
    expect((await s.presign(file(12, 6000), {}, creds)).status).toBe(201)
    expect((await s.presign(file(13, 6000), {}, creds)).status).toBe(402)
    await pendingExpire()
    expect((await s.presign(file(14, 6000), {}, creds)).status).toBe(201)
    await pendingExpire()

    // Thirty uploads of 500 bytes at once under 10,000: never more than twenty; once the replica's
    // lease is settled, exactly twenty in all.
    const all = await Promise.all(Array.from({ length: 30 }, (_, i) => s.presign(file(100 + i, 500), {}, creds)))
    const allowed = all.filter((r) => r.status === 201).length
    expect(all.every((r) => r.status === 201 || r.status === 402)).toBe(true)
    expect(allowed).toBeLessThanOrEqual(20)
    await s.h.app.services.billing.entitlements.flush()
    let more = 0
    while ((await s.presign(file(200 + more, 500), {}, creds)).status === 201) more++
    expect(allowed + more).toBe(20)
    expect(await use(STORAGE_BYTES)).toMatchObject({ used: 0 })
  })
})
