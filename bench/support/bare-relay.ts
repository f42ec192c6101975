/**
 * P4's calibration: a chat reply relayed with nothing of Ecobase around it. One Elysia route streams,
 * as SSE frames named as the server names them (`open`, `token`, `done`), the events that the
 * server's own OpenAI adapter (src/providers/llm/openai.ts, the `openai` SDK inside) makes of the
 * upstream's reply: no account, no database, no stored turn. chat-latency times it beside the
 * server, so that what the server adds over it is Ecobase's own share of the first token.
 *
 *   bun bench/support/bare-relay.ts <upstream base URL>   (prints its own URL, then serves POST /)
 */
import { Elysia, sse } from 'elysia'
import { OpenAiChatModel } from '../../src/providers/llm/openai'

const upstream = process.argv[2]
if (!upstream) throw new Error('usage: bun bench/support/bare-relay.ts <upstream base URL>')

const model = new OpenAiChatModel({ baseUrl: upstream, apiKey: null, idleTimeoutMs: 30_000 })

const app = new Elysia()
  .post('/', async function* ({ body, request }) {
    const { model: name, message } = body as { model: string; message: string }
    const events = model.stream({ model: name, messages: [{ role: 'user', content: message }], signal: request.signal })
    // The upstream request leaves before `open`, as the server's does (its TurnCall).
    const first = events.next()
    first.catch(() => undefined)
    yield sse({ event: 'open', data: {} })
    for (let step = await first; !step.done; step = await events.next()) {
      if (step.value.type === 'text') yield sse({ event: 'token', data: { text: step.value.text } })
    }
    yield sse({ event: 'done', data: {} })
  })
  .listen({ port: 0, hostname: '127.0.0.1' })

console.log(`http://127.0.0.1:${app.server!.port}`)
