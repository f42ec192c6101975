/**
 * A local OpenAI-compatible HTTP server for tests and benches: POST /v1/chat/completions streams
 * chunks the way OpenAI does (role delta, content deltas, tool_calls deltas split across chunks,
 * finish_reason, [DONE]); GET /v1/models lists models. The model name picks the behaviour:
 *
 * - any other name: echoes the last user message in small pieces ("You said: …"); when tools are
 *   offered and the message names one, calls it (arguments: the first `{...}` in the message, sent
 *   in three fragments); after tool results, answers "Tool said: <results>".
 * - `stall`: sends the role delta, then nothing until the client goes away.
 * - `slow`: 200 pieces "tick ", one every 20 ms.
 * - `drop`: two pieces, then the connection breaks.
 * - `cut`: two pieces, then the stream ends cleanly but without finish_reason or [DONE].
 * - `error`: two pieces, then an error object in the stream.
 * - `malformed`: one piece, then a chunk that is not JSON.
 * - `missing`: answers 404 { error: { message: "The model `missing` does not exist" } }.
 * - `bench-<n>`: n pieces "tok " at once.
 */
export interface RecordedRequest {
  path: string
  authorization: string | null
  body: any
  /** The W3C trace context sent along (with tracing on); absent otherwise. */
  traceparent?: string
}

export interface FakeOpenAi {
  url: string
  requests: RecordedRequest[]
  /** Streams whose client went away before the stream ended. */
  aborted: number
  /** Resolves once `aborted` reaches `n` (rejects after `ms`). */
  waitForAborts(n: number, ms?: number): Promise<void>
  stop(): Promise<void>
}

const encoder = new TextEncoder()
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export function startFakeOpenAi(options: { apiKey?: string; models?: string[] } = {}): FakeOpenAi {
  const state = { requests: [] as RecordedRequest[], aborted: 0 }
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname
      const authorization = req.headers.get('authorization')
      const body = req.method === 'POST' ? await req.json().catch(() => null) : null
      state.requests.push({ path, authorization, body, traceparent: req.headers.get('traceparent') ?? undefined })
      if (options.apiKey && authorization !== `Bearer ${options.apiKey}`) {
        // As OpenAI does: the message quotes the presented key, partly masked.
        const presented = authorization?.replace(/^Bearer /, '') ?? ''
        const masked = presented.length > 11 ? `${presented.slice(0, 7)}****${presented.slice(-4)}` : presented
        return Response.json({ error: { message: `Incorrect API key provided: ${masked}`, type: 'invalid_request_error' } }, { status: 401 })
      }
      if (req.method === 'GET' && path === '/v1/models') {
        const ids = options.models ?? ['fake-echo', 'fake-large']
        return Response.json({ object: 'list', data: ids.map((id) => ({ id, object: 'model', created: 1700000000, owned_by: 'fake' })) })
      }
      if (req.method !== 'POST' || path !== '/v1/chat/completions' || !body) return Response.json({ error: { message: 'not found' } }, { status: 404 })
      if (body.model === 'missing') return Response.json({ error: { message: 'The model `missing` does not exist' } }, { status: 404 })
      return streamReply(req, body, () => state.aborted++)
    },
  })
  return {
    url: `http://127.0.0.1:${server.port}/v1`,
    get requests() {
      return state.requests
    },
    get aborted() {
      return state.aborted
    },
    async waitForAborts(n, ms = 5000) {
      const until = Date.now() + ms
      while (state.aborted < n) {
        if (Date.now() > until) throw new Error(`fake OpenAI server saw ${state.aborted} aborted streams, expected ${n}`)
        await sleep(10)
      }
    },
    stop: () => server.stop(true),
  }
}

type Step = { delta?: Record<string, unknown>; finish?: string; raw?: string; wait?: number; breakConnection?: true; hang?: true; end?: true }

function streamReply(req: Request, body: any, onAbort: () => void): Response {
  const steps = script(body)
  let done = false
  const gone = () => {
    if (!done) onAbort()
    done = true
  }
  req.signal.addEventListener('abort', gone)
  const chunk = (choice: Record<string, unknown>) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1700000000, model: body.model, choices: [{ index: 0, ...choice }] })}\n\n`
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      for (const step of [{ delta: { role: 'assistant', content: '' } } as Step, ...steps]) {
        if (done) return
        if (step.wait) await sleep(step.wait)
        if (step.hang) return
        if (step.end) return controller.close()
        if (step.breakConnection) return controller.error()
        const text = step.raw ?? chunk({ delta: step.delta ?? {}, finish_reason: step.finish ?? null })
        try {
          controller.enqueue(encoder.encode(text))
        } catch {
          return gone()
        }
      }
      // As OpenAI reports usage when asked: one last chunk without choices.
      if (body.stream_options?.include_usage) {
        const usage = {
          prompt_tokens: (body.messages ?? []).length,
          completion_tokens: steps.length,
          total_tokens: (body.messages ?? []).length + steps.length,
        }
        controller.enqueue(
          encoder.encode(
            `data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1700000000, model: body.model, choices: [], usage })}\n\n`,
          ),
        )
      }
      controller.enqueue(encoder.encode('data: [DONE]\n\n'))
      done = true
      controller.close()
    },
    cancel: gone,
  })
  return new Response(stream, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } })
}

function pieces(text: string, size: number): Step[] {
  const out: Step[] = []
  for (let i = 0; i < text.length; i += size) out.push({ delta: { content: text.slice(i, i + size) } })
  return out
}

function script(body: any): Step[] {
  const model: string = body.model
  const bench = /^bench-(\d+)$/.exec(model)
  if (bench) return [...Array.from({ length: Number(bench[1]) }, () => ({ delta: { content: 'tok ' } })), { finish: 'stop' }]
  switch (model) {
    case 'stall':
      return [{ hang: true }]
    case 'slow':
      return [...Array.from({ length: 200 }, () => ({ wait: 20, delta: { content: 'tick ' } })), { finish: 'stop' }]
    case 'drop':
      return [...pieces('Half a rep', 5), { wait: 10, breakConnection: true }]
    case 'cut':
      return [...pieces('Half a rep', 5), { end: true }]
    case 'error':
      return [...pieces('Half a rep', 5), { raw: `data: ${JSON.stringify({ error: { message: 'The upstream is overloaded', type: 'server_error' } })}\n\n` }]
    case 'malformed':
      return [...pieces('Half', 4), { raw: 'data: {"choices": [ this is not json\n\n' }]
  }
  const messages: any[] = body.messages ?? []
  const last = messages.at(-1)
  if (last?.role === 'tool') {
    const results = []
    for (let i = messages.length - 1; i >= 0 && messages[i].role === 'tool'; i--) results.unshift(messages[i].content)
    return [...pieces(`Tool said: ${results.join(' ')}`, 7), { finish: 'stop' }]
  }
  const said: string = typeof last?.content === 'string' ? last.content : ''
  const tool = (body.tools ?? []).find((t: any) => said.includes(t.function?.name))
  if (tool) {
    const args = /\{[^{}]*\}/.exec(said)?.[0] ?? '{}'
    const third = Math.ceil(args.length / 3)
    return [
      { delta: { tool_calls: [{ index: 0, id: 'call_fake_1', type: 'function', function: { name: tool.function.name, arguments: '' } }] } },
      ...[0, 1, 2].map((i) => ({ delta: { tool_calls: [{ index: 0, function: { arguments: args.slice(i * third, (i + 1) * third) } }] } })),
      { finish: 'tool_calls' },
    ]
  }
  return [...pieces(`You said: ${said}`, 3), { finish: 'stop' }]
}
