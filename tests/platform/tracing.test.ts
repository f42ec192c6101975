import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chatActor, type ChatActor, newConversation, parseFrames, send } from '../chat/support'
import { startFakeOpenAi } from '../support/fake-openai'
import { createHarness, type Harness } from '../support/harness'
import { startReceiver } from '../support/receiver'
import { until } from '../support/wait'

interface OtlpValue {
  stringValue?: string
  intValue?: number | string
  boolValue?: boolean
}
interface OtlpSpan {
  traceId: string
  spanId: string
  parentSpanId?: string
  traceState?: string
  name: string
  kind: number
  attributes: { key: string; value: OtlpValue }[]
  links?: { traceId: string; spanId: string }[]
}

/** An OTLP/HTTP collector for the test: keeps every body posted to /v1/traces (the exporter sends OTLP JSON). */
function startCollector() {
  const bodies: string[] = []
  const server = Bun.serve({
    port: 0,
    async fetch(req) {
      if (req.method !== 'POST' || new URL(req.url).pathname !== '/v1/traces') return new Response('not found', { status: 404 })
      bodies.push(await req.text())
      return Response.json({})
    },
  })
  const spans = (): OtlpSpan[] =>
    bodies.flatMap((b) => (JSON.parse(b).resourceSpans ?? []).flatMap((r: any) => r.scopeSpans.flatMap((s: any) => s.spans as OtlpSpan[])))
  return { url: `http://127.0.0.1:${server.port}`, bodies, spans, close: () => server.stop(true) }
}

const attr = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value
  return value?.stringValue ?? (value?.intValue === undefined ? value?.boolValue : Number(value.intValue))
}

const collector = startCollector()
const receiver = startReceiver()

/** The exported spans once one is named `name`: a request's span ends after its answer, a job's after its handler. */
async function exportedOnce(h: Harness, name: string): Promise<OtlpSpan[]> {
  await until(async () => {
    await h.deps.tracing.flush()
    return collector.spans().some((s) => s.name === name)
  })
  return collector.spans()
}

describe('with OTEL_EXPORTER_OTLP_ENDPOINT set', () => {
  let h: Harness
  let a: ChatActor
  beforeAll(async () => {
    h = await createHarness({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_SERVICE_NAME: 'ecobase-test', WEBHOOK_PRIVATE_ADDRESSES: 'allow' })
    a = await chatActor(h)
  })
  afterAll(() => h.close())

  test('a chat send is one trace: the request continuing the caller’s, its statements and model call as children, the webhook job linked to it', async () => {
    const hook = await h.call('POST', '/integrations/webhooks', {
      ...a.org.as(a.owner),
      body: { url: `${receiver.url}/traced`, events: ['chat.message.completed'] },
    })
    expect(hook.status).toBe(201)
    const conversation = await newConversation(h, a)
    const callerTrace = crypto.randomUUID().replaceAll('-', '')
    const callerSpan = callerTrace.slice(0, 16)
    const secret = `never-in-a-span-${crypto.randomUUID()}`
    const res = await h.app.handle(
      new Request(`http://localhost/chat/conversations/${conversation.id}/messages`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${a.auth.token}`,
          'content-type': 'application/json',
          traceparent: `00-${callerTrace}-${callerSpan}-01`,
          tracestate: 'caller=blue',
        },
        body: JSON.stringify({ message: secret }),
      }),
    )
    expect(res.status).toBe(200)
    expect(parseFrames(await res.text()).at(-1)?.event).toBe('done')
    await until(() => receiver.to('/traced').length > 0)
    const spans = await exportedOnce(h, 'process webhook-deliver')

    // The request: named by its route template, continuing the caller's trace under the caller's span.
    const request = spans.find((s) => s.name === 'POST /chat/conversations/:id/messages')!
    expect(request).toBeDefined()
    expect(request.traceId).toBe(callerTrace)
    expect(request.parentSpanId).toBe(callerSpan)
    expect(request.traceState).toBe('caller=blue')
    expect(attr(request, 'http.route')).toBe('/chat/conversations/:id/messages')
    expect(attr(request, 'http.request.method')).toBe('POST')
    expect(attr(request, 'http.response.status_code')).toBe(200)
    expect(spans.some((s) => s.name.includes(conversation.id))).toBe(false)

    // Its statements: children named by their first keyword, with the database system and nothing of the text.
    const statements = spans.filter((s) => s.parentSpanId === request.spanId && attr(s, 'db.system') === 'postgresql')
    // The send's lock, history and insert are one `select chat.take_turn(…)`.
    expect(statements.map((s) => s.name)).toContain('SELECT')
    for (const s of statements) {
      expect(s.name).toMatch(/^[A-Z]+$/)
      expect(s.traceId).toBe(callerTrace)
      expect(attr(s, 'db.system.name')).toBe('postgresql')
      expect(s.attributes.map((x) => x.key).sort()).toEqual(['db.operation.name', 'db.system', 'db.system.name'])
    }
    // The message was a statement's parameter and the model's input: it appears nowhere in what was exported.
    expect(collector.bodies.some((b) => b.includes(secret))).toBe(false)

    // The model call: a child of the request, with the model's name.
    const model = spans.find((s) => s.name === 'chat dev')!
    expect(model.parentSpanId).toBe(request.spanId)
    expect(attr(model, 'gen_ai.request.model')).toBe('dev')
    expect(attr(model, 'gen_ai.operation.name')).toBe('chat')

    // The webhook delivery job: a trace of its own, linked to the request that queued it; its call carries traceparent.
    const job = spans.find((s) => s.name === 'process webhook-deliver')!
    expect(job).toBeDefined()
    expect(job.traceId).not.toBe(callerTrace)
    expect(job.parentSpanId || undefined).toBeUndefined()
    expect(job.links).toContainEqual(expect.objectContaining({ traceId: callerTrace, spanId: request.spanId }))
    const post = spans.find((s) => s.traceId === job.traceId && s.name === 'POST')!
    expect(post.parentSpanId).toBe(job.spanId)
    expect(attr(post, 'server.address')).toBe('127.0.0.1')
    expect(attr(post, 'http.response.status_code')).toBe(200)
    const delivered = receiver.to('/traced')[0]!
    expect(delivered.headers.traceparent).toBe(`00-${job.traceId}-${post.spanId}-01`)
    expect(spans.some((s) => s.parentSpanId === job.spanId && attr(s, 'db.system') === 'postgresql')).toBe(true)

    // The request's log line carries its trace id.
    const line = h.logLines.map((l) => JSON.parse(l)).find((l) => l.msg === 'request' && l.path === `/chat/conversations/${conversation.id}/messages`)
    expect(line.traceId).toBe(callerTrace)
  })

  test('a request without traceparent starts a trace of its own; an unmatched path is named by its method only', async () => {
    const before = collector.spans().length
    expect((await h.call('GET', '/auth/me', { token: a.owner.token })).status).toBe(200)
    expect((await h.call('GET', `/no/such/${crypto.randomUUID()}`)).status).toBe(404)
    await exportedOnce(h, 'GET /auth/me')
    const spans = (await exportedOnce(h, 'GET')).slice(before)
    const me = spans.find((s) => s.name === 'GET /auth/me')!
    expect(me.parentSpanId || undefined).toBeUndefined()
    const unmatched = spans.find((s) => attr(s, 'http.response.status_code') === 404 && s.kind === 2)!
    expect(unmatched.name).toBe('GET')
    expect(attr(unmatched, 'http.route')).toBeUndefined()
  })

  test('probes are not traced', async () => {
    expect((await h.call('GET', '/health/live')).status).toBe(200)
    expect((await h.call('GET', '/health')).status).toBe(200)
    await until(() => h.logLines.some((l) => l.includes('"path":"/health"') && l.includes('"msg":"request"')))
    await h.deps.tracing.flush()
    expect(collector.spans().some((s) => s.name.startsWith('GET /health'))).toBe(false)
  })

  test('a caller’s unsampled traceparent is followed: nothing of the request is exported, yet its log line carries the caller’s trace id', async () => {
    const callerTrace = crypto.randomUUID().replaceAll('-', '')
    const res = await h.app.handle(
      new Request('http://localhost/auth/me', {
        headers: { authorization: `Bearer ${a.owner.token}`, traceparent: `00-${callerTrace}-${callerTrace.slice(16)}-00` },
      }),
    )
    expect(res.status).toBe(200)
    // The log line is written once the request's span has ended: a flush then exports whatever of it was kept.
    await until(() => h.logLines.some((l) => l.includes(`"traceId":"${callerTrace}"`) && l.includes('"msg":"request"')))
    await h.deps.tracing.flush()
    expect(collector.spans().some((s) => s.traceId === callerTrace)).toBe(false)
  })

  test('the resource names the service', async () => {
    const resource = JSON.parse(collector.bodies[0]!).resourceSpans[0].resource
    expect(resource.attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'ecobase-test' } })
  })
})

describe('model services, traced', () => {
  const fake = startFakeOpenAi()
  let h: Harness
  let a: ChatActor
  beforeAll(async () => {
    h = await createHarness({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OPENAI_BASE_URL: fake.url, PERSONA_SERVICE_PRIVATE_ADDRESSES: 'allow' })
    a = await chatActor(h)
  })
  afterAll(async () => {
    await h.close()
    await fake.stop()
  })

  test('a chat turn’s model call carries the token counts the service reports, which Ecobase asks for', async () => {
    const conversation = await newConversation(h, a)
    const turn = await send(h, a, conversation.id, { message: 'Bonjour' })
    expect(turn.events.at(-1)?.event).toBe('done')
    const [request] = fake.requests.filter((r) => r.path === '/v1/chat/completions')
    expect(request!.body.stream_options).toEqual({ include_usage: true })
    const model = (await exportedOnce(h, 'chat gpt-4o-mini')).find((s) => s.name === 'chat gpt-4o-mini')!
    expect(attr(model, 'gen_ai.provider.name')).toBe('openai')
    expect(attr(model, 'gen_ai.request.model')).toBe('gpt-4o-mini')
    // The fake reports the messages it got as input tokens and its chunks as output tokens.
    expect(attr(model, 'gen_ai.usage.input_tokens')).toBe(request!.body.messages.length)
    expect(attr(model, 'gen_ai.usage.output_tokens')).toBeGreaterThan(0)
  })

  test('a persona service’s call (through the gate) sends traceparent: the service continues the request’s trace', async () => {
    const admin = a.org.as(a.owner)
    const created = await h.call('POST', '/persona/services', { ...admin, body: { name: 'Local', baseUrl: fake.url } })
    expect(created.status).toBe(201)
    const callerTrace = crypto.randomUUID().replaceAll('-', '')
    const connect = await h.call('POST', `/persona/services/${created.body.id}/connect`, {
      ...admin,
      headers: { ...admin.headers, traceparent: `00-${callerTrace}-${callerTrace.slice(0, 16)}-01` },
    })
    expect(connect.body.connectStatus).toBe('connected')
    const sent = fake.requests.findLast((r) => r.path === '/v1/models')!.traceparent
    expect(sent).toMatch(new RegExp(`^00-${callerTrace}-[0-9a-f]{16}-01$`))
    const spans = await exportedOnce(h, 'POST /persona/services/:id/connect')
    const call = spans.find((s) => s.spanId === sent!.split('-')[2])!
    expect(call.name).toBe('GET')
    expect(spans.find((s) => s.spanId === call.parentSpanId)!.name).toBe('POST /persona/services/:id/connect')
  })
})

describe('without an OTLP endpoint', () => {
  test('no tracer is started, nothing is exported, and log lines carry no trace id', async () => {
    const h = await createHarness()
    try {
      expect(h.deps.tracing.enabled).toBe(false)
      const exported = collector.bodies.length
      const owner = await h.register()
      expect((await h.call('GET', '/auth/me', { token: owner.token })).status).toBe(200)
      const lines = () => h.logLines.map((l) => JSON.parse(l))
      // The request's line is written once its answer is sent.
      await until(() => lines().some((l) => l.msg === 'request' && l.path === '/auth/me'))
      await h.deps.tracing.flush()
      expect(collector.bodies.length).toBe(exported)
      expect(lines().some((l) => 'traceId' in l)).toBe(false)
    } finally {
      await h.close()
    }
  })
})

afterAll(() => {
  collector.close()
  receiver.close()
})
