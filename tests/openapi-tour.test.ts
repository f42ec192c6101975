import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { startFakeStripe } from './support/fake-stripe'
import { startFakeTwilio } from './support/fake-twilio'
import { createHarness, type CallOptions, type Harness, type Reply } from './support/harness'
import { asAdmin, type Context, type Step, tourSteps, type Who } from './support/openapi-tour'
import { startSmtp } from './support/smtp'

// The OpenAPI document's examples, sent to the service: every operation with a request body or an
// answer example is called once, in an order a real integration would follow, with its request
// example as the body. Only what the example cannot know is replaced: ids and secrets from earlier
// answers (as the quick start takes the customer id from `resolve`), codes from an authenticator or
// a mailbox. Each call must answer one of the operation's documented success statuses, with the
// fields its answer example shows (no more, no fewer, all the way down).

const doc = JSON.parse(readFileSync(join(import.meta.dir, '..', 'openapi.json'), 'utf8'))

const smtp = await startSmtp()
/** Stripe (a local fake of its API) takes the keys the billing settings example names. */
const STRIPE_KEYS = doc.paths['/billing/settings'].put.requestBody.content['application/json'].example
const stripe = startFakeStripe(STRIPE_KEYS.stripeSecretKey)
const TWILIO = { accountSid: 'AC0123456789abcdef0123456789abcdef', authToken: 'twilio-test-token' }
const twilio = startFakeTwilio(TWILIO)
let h: Harness
const STEPS = tourSteps({
  get h() {
    return h
  },
  smtp,
  stripe,
  stripeKeys: STRIPE_KEYS,
  twilioAccount: TWILIO,
})
beforeAll(async () => {
  h = await createHarness({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Acme <no-reply@example.com>',
    PASSWORD_RESET_URL: 'https://app.example.com/reset?token={token}',
    STRIPE_API_URL: stripe.url,
    TWILIO_API_URL: twilio.url,
    SITE_SERVICE_PRIVATE_ADDRESSES: 'allow',
  })
})
afterAll(async () => {
  await h.close()
  await smtp.close()
  stripe.close()
  twilio.close()
})

function credentials(who: Who, c: Context): CallOptions {
  if (typeof who === 'function') return who(c)
  if (who === 'user') return { token: c.token }
  if (who === 'admin') return asAdmin(c)
  if (who === 'customer') return { token: c.customer }
  return {}
}

function operation(op: string) {
  const [method, path] = op.split(' ') as [string, string]
  const found = doc.paths[path]?.[method.toLowerCase()]
  if (!found) throw new Error(`${op} is not in openapi.json`)
  const content = found.requestBody?.content ?? {}
  const successes = Object.keys(found.responses).filter((s) => /^2\d\d$/.test(s))
  return {
    method,
    path,
    request: (content['application/json'] ?? (Object.values(content)[0] as { example?: unknown } | undefined))?.example,
    successes: successes.map(Number),
    answer: (status: number) => found.responses[String(status)]?.content?.['application/json'] as { example?: unknown; schema?: Schema } | undefined,
  }
}

type Schema = { $ref?: string; properties?: Record<string, Schema>; required?: string[]; items?: Schema; anyOf?: Schema[]; oneOf?: Schema[]; allOf?: Schema[] }
const resolve = (schema: Schema | undefined): Schema | undefined => (schema?.$ref ? resolve(doc.components.schemas[schema.$ref.split('/').pop()!]) : schema)

/** An object schema's properties and which of them are optional, through unions and `allOf`. */
function shapeOf(schema: Schema | undefined): { properties: Record<string, Schema>; optional: Set<string> } {
  const s = resolve(schema)
  const properties: Record<string, Schema> = { ...s?.properties }
  const optional = new Set(Object.keys(s?.properties ?? {}).filter((k) => !s?.required?.includes(k)))
  for (const variant of [...(s?.anyOf ?? []), ...(s?.oneOf ?? []), ...(s?.allOf ?? [])]) {
    const inner = shapeOf(variant)
    Object.assign(properties, inner.properties)
    for (const k of inner.optional) optional.add(k)
  }
  return { properties, optional }
}
const itemsOf = (schema: Schema | undefined): Schema | undefined => {
  const s = resolve(schema)
  return s?.items ?? [...(s?.anyOf ?? []), ...(s?.oneOf ?? [])].map(itemsOf).find(Boolean)
}

/**
 * Where `answer`'s fields differ from `example`'s, all the way down (arrays by their first item):
 * the example shows no field the answer lacks, and the answer has no field the example leaves out,
 * unless its model marks that field optional (a plan's `overage` appears once it is set).
 */
function fieldDifferences(answer: unknown, example: unknown, schema: Schema | undefined, at = ''): string[] {
  if (Array.isArray(example) && Array.isArray(answer))
    return example.length && answer.length ? fieldDifferences(answer[0], example[0], itemsOf(schema), `${at}[0]`) : []
  const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)
  if (!isObject(example) || !isObject(answer)) return []
  const { properties, optional } = shapeOf(schema)
  const out: string[] = []
  for (const key of Object.keys(example)) if (!(key in answer)) out.push(`${at}.${key} is in the example, not in the answer`)
  for (const key of Object.keys(answer)) if (!(key in example) && !optional.has(key)) out.push(`${at}.${key} is in the answer, not in the example`)
  for (const key of Object.keys(example)) if (key in answer) out.push(...fieldDifferences(answer[key], example[key], properties[key], `${at}.${key}`))
  return out
}

async function send(step: Step, c: Context): Promise<Reply> {
  const op = operation(step.op)
  await step.before?.(c)
  const example = op.request === undefined ? undefined : structuredClone(op.request)
  const sent = step.body ? await step.body(example, c) : example
  let path = op.path
  for (const [name, value] of Object.entries(step.params?.(c) ?? {})) path = path.replace(`{${name}}`, encodeURIComponent(value))
  const query = await step.query?.(c)
  if (query) path += `?${query}`
  const options = credentials(step.as ?? 'user', c)
  const headers = { ...options.headers }
  let body: unknown = sent
  let form: Record<string, string> = {}
  if (step.form && sent !== undefined) {
    form = Object.fromEntries(Object.entries(sent as Record<string, unknown>).map(([k, v]) => [k, String(v)]))
    body = new URLSearchParams(form).toString()
    headers['content-type'] = 'application/x-www-form-urlencoded'
  }
  Object.assign(headers, step.headers?.(c, form))
  return h.call(op.method, path, { ...options, headers, body })
}

describe('the OpenAPI document’s examples, sent to the service', () => {
  test('every operation with a request body or an answer example is in the tour', () => {
    const toured = new Set(STEPS.map((s) => s.op))
    const missing: string[] = []
    for (const [path, methods] of Object.entries(
      doc.paths as Record<string, Record<string, { requestBody?: unknown; responses: Record<string, { content?: Record<string, { example?: unknown }> }> }>>,
    )) {
      for (const [method, op] of Object.entries(methods)) {
        const hasExample = Object.entries(op.responses).some(([s, r]) => /^2/.test(s) && Object.values(r.content ?? {}).some((m) => m.example !== undefined))
        const name = `${method.toUpperCase()} ${path}`
        if ((op.requestBody || hasExample) && !toured.has(name)) missing.push(name)
      }
    }
    expect(missing).toEqual([])
    expect(STEPS.length).toBe(toured.size)
  })

  test('sent in order, each example is accepted and answered with the fields its answer example shows', async () => {
    const c: Context = {}
    const failures: string[] = []
    for (const step of STEPS.filter((s) => s.when?.() ?? true)) {
      const op = operation(step.op)
      try {
        const reply = await send(step, c)
        if (!op.successes.includes(reply.status)) {
          failures.push(`${step.op}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`)
          continue
        }
        const shown = op.answer(reply.status)
        if (shown?.example !== undefined) failures.push(...fieldDifferences(reply.body, shown.example, shown.schema).map((d) => `${step.op}: ${d}`))
        await step.then?.(reply.body, c)
      } catch (error) {
        failures.push(`${step.op}: ${error}`)
      }
    }
    expect(failures).toEqual([])
  }, 120_000)
})
