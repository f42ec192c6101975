/**
 * A local OpenAI-compatible embeddings server (POST /v1/embeddings) for tests and benches.
 * Vectors: a text starting with `vec:` followed by numbers (`vec:1,0,-1`) gets exactly those
 * components, zero-padded to the requested `dimensions`; any other text a bag of its words
 * hashed into buckets. It answers floats, or base64 when asked (as the real API does), and can be
 * told to refuse inputs containing a marker (400 for the whole request, as OpenAI does for one
 * bad input), to be down (503), to answer the wrong size, or to be slow.
 */
export interface FakeEmbeddings {
  url: string
  requests: { authorization: string | null; body: any }[]
  /** Requests whose input contains any of these strings are refused with 400. */
  failing: string[]
  down: boolean
  /** Answer vectors of this size whatever was asked. */
  wrongDimensions: number | null
  delayMs: number
  stop(): Promise<void>
}

export function startFakeEmbeddings(options: { apiKey?: string } = {}): FakeEmbeddings {
  const fake: FakeEmbeddings = {
    url: '',
    requests: [],
    failing: [],
    down: false,
    wrongDimensions: null,
    delayMs: 0,
    stop: async () => server.stop(true),
  }
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const body = await req.json().catch(() => null)
      fake.requests.push({ authorization: req.headers.get('authorization'), body })
      if (fake.delayMs) await Bun.sleep(fake.delayMs)
      const refuse = (status: number, message: string, type: string) => Response.json({ error: { message, type } }, { status })
      if (new URL(req.url).pathname !== '/v1/embeddings' || req.method !== 'POST') return refuse(404, 'not found', 'invalid_request_error')
      if (options.apiKey && req.headers.get('authorization') !== `Bearer ${options.apiKey}`)
        return refuse(401, 'Incorrect API key provided', 'invalid_request_error')
      if (fake.down) return refuse(503, 'The server is overloaded', 'server_error')
      const inputs: unknown[] = typeof body?.input === 'string' ? [body.input] : Array.isArray(body?.input) ? body.input : []
      if (inputs.length === 0 || !inputs.every((i) => typeof i === 'string'))
        return refuse(400, "'input' must be a string or an array of strings", 'invalid_request_error')
      if (inputs.some((i) => fake.failing.some((marker) => (i as string).includes(marker))))
        return refuse(400, 'This input is not accepted', 'invalid_request_error')
      const size = fake.wrongDimensions ?? (Number.isInteger(body.dimensions) ? body.dimensions : 1536)
      const data = (inputs as string[]).map((text, index) => {
        const v = vectorOf(text, size)
        return { object: 'embedding', index, embedding: body.encoding_format === 'base64' ? base64(v) : v }
      })
      return Response.json({ object: 'list', data, model: body.model, usage: { prompt_tokens: inputs.length, total_tokens: inputs.length } })
    },
  })
  fake.url = `http://127.0.0.1:${server.port}/v1`
  return fake
}

function vectorOf(text: string, size: number): number[] {
  const v = new Array<number>(size).fill(0)
  const given = /^vec:([-0-9.,e ]+)/.exec(text)
  if (given) {
    for (const [i, x] of given[1]!.split(',').slice(0, size).entries()) v[i] = Number(x)
    return v
  }
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    let h = 7
    for (const ch of word) h = (h * 31 + ch.charCodeAt(0)) % 1_000_003
    v[h % size]! += 1
  }
  return v
}

function base64(v: number[]): string {
  return Buffer.from(new Float32Array(v).buffer).toString('base64')
}
