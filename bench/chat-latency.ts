/**
 * P4: server-added latency to the first token of a chat reply, over the upstream's own, and
 * tokens/s relayed per stream. A real server child (PGlite and PostgreSQL) talks to the local
 * OpenAI-compatible server of tests/support, run in a process of its own like a real upstream;
 * this process measures, in alternating order, the upstream directly and the same reply through
 * POST /chat/conversations/{id}/messages (customer token, fresh conversation per sample).
 * Target: p50(through) − p50(direct) ≤ 2 ms.
 *
 *   npx bun bench/chat-latency.ts [--db=pglite,postgres] [--samples=200] [--streams=5] [--tokens=2000]
 */
import { join } from 'node:path'
import {
  BACKENDS,
  type Backend,
  benchArgs,
  benchMain,
  type BenchCommand,
  customerOf,
  eachBackend,
  expectStatus,
  fmt,
  loadAverage,
  markdownTable,
  median,
  onCleanup,
  percentile,
  registerUser,
  ROOT,
  type RunInfo,
  runInfo,
  withServer,
} from './support'

export const TARGET_MS = 2

export interface ChatLatencyOptions {
  backends?: Backend[]
  /** First-token samples per path. */
  samples?: number
  /** Long streams per path for tokens/s. */
  streams?: number
  /** Tokens in each long stream. */
  tokens?: number
  log?: (line: string) => void
}

export interface ChatLatencyBackendResult {
  backend: Backend
  skipped?: string
  error?: string
  loadBefore?: number
  directP50Ms?: number
  directP90Ms?: number
  throughP50Ms?: number
  throughP90Ms?: number
  /** p50(through) − p50(direct). */
  addedP50Ms?: number
  directTokensPerSec?: number
  throughTokensPerSec?: number
}

export interface ChatLatencyResult extends RunInfo {
  name: 'chat-latency'
  targetMs: number
  settings: { samples: number; streams: number; tokens: number }
  backends: ChatLatencyBackendResult[]
  pass: boolean
  failed: boolean
}

export async function benchChatLatency(options: ChatLatencyOptions = {}): Promise<ChatLatencyResult> {
  const log = options.log ?? ((l: string) => console.log(l))
  const settings = { samples: options.samples ?? 200, streams: options.streams ?? 5, tokens: options.tokens ?? 2000 }
  log(
    `P4 chat-latency: first token through the server vs from the upstream, ${settings.samples} samples each; ${settings.streams} streams of ${settings.tokens} tokens; target ≤ ${TARGET_MS} ms added (p50)`,
  )
  const fake = await startUpstream()
  const results = await eachBackend(options.backends ?? BACKENDS, log, (backend) => measure(backend, fake, settings, log), { catchErrors: true }).finally(() =>
    fake.stop(),
  )
  const measured = results.filter((r) => r.addedP50Ms !== undefined)
  return {
    name: 'chat-latency',
    targetMs: TARGET_MS,
    ...runInfo(),
    settings,
    backends: results,
    pass: measured.length > 0 && measured.every((r) => r.addedP50Ms! <= TARGET_MS),
    failed: results.some((r) => r.error !== undefined),
  }
}

/**
 * Reads a streamed body: ms from `started` to the first chunk holding `first`, ms from `started`
 * to the end, and how many lines match `each`.
 */
export async function timeStream(res: Response, started: number, first: string, each: RegExp) {
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let firstMs = NaN
  let count = 0
  let carry = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    const text = carry + decoder.decode(value, { stream: true })
    if (Number.isNaN(firstMs) && text.includes(first)) firstMs = performance.now() - started
    count += text.match(each)?.length ?? 0
    // Keep an incomplete last line for the next read, so that no match is split or counted twice.
    const cut = text.lastIndexOf('\n') + 1
    carry = text.slice(cut)
    count -= carry.match(each)?.length ?? 0
  }
  count += carry.match(each)?.length ?? 0
  if (Number.isNaN(firstMs)) throw new Error(`no first token in the stream (status ${res.status})`)
  return { firstMs, count, totalMs: performance.now() - started }
}

/**
 * Tokens per second of `streams` replies of `tokens` tokens each (the median), which the upstream
 * sends as fast as it can (model `bench-<tokens>`), so that many events arrive in one read.
 */
export async function relayRate(send: (model: string) => Promise<{ count: number; totalMs: number }>, streams: number, tokens: number): Promise<number> {
  const rates: number[] = []
  for (let i = 0; i < streams; i++) {
    const { count, totalMs } = await send(`bench-${tokens}`)
    if (count !== tokens) throw new Error(`expected ${tokens} tokens, got ${count}`)
    rates.push((count / totalMs) * 1000)
  }
  return median(rates)
}

/** The fake OpenAI-compatible server in a child process; resolves once it listens. */
export async function startUpstream(): Promise<{ url: string; stop(): Promise<void> }> {
  const entry = JSON.stringify(join(ROOT, 'tests/support/fake-openai.ts'))
  const child = Bun.spawn([process.execPath, '-e', `const { startFakeOpenAi } = await import(${entry}); console.log(startFakeOpenAi().url)`], {
    stdout: 'pipe',
    stderr: 'inherit',
  })
  const stop = onCleanup(async () => {
    child.kill()
    await child.exited
  })
  const reader = child.stdout.getReader()
  let out = ''
  while (!out.includes('\n')) {
    const { value, done } = await reader.read()
    if (done) throw new Error('the fake OpenAI server exited before listening')
    out += new TextDecoder().decode(value)
  }
  reader.releaseLock()
  return { url: out.trim(), stop }
}

async function measure(backend: Backend, fake: { url: string }, s: { samples: number; streams: number; tokens: number }, log: (l: string) => void) {
  const loadBefore = loadAverage()
  return withServer(
    backend,
    async (server): Promise<ChatLatencyBackendResult> => {
      const { token } = await customerOf(server.url, (await registerUser(server.url)).token)
      const json = { 'content-type': 'application/json' }
      const asCustomer = { ...json, authorization: `Bearer ${token}` }

      const direct = async (model: string) => {
        const started = performance.now()
        const res = await fetch(`${fake.url}/chat/completions`, {
          method: 'POST',
          headers: { ...json, authorization: 'Bearer none' },
          body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'hello' }] }),
        })
        return timeStream(res, started, '"content":"tok', /"content":"tok /g)
      }
      const through = async (model: string) => {
        const conversation = (await expectStatus(
          `${server.url}/chat/conversations`,
          { method: 'POST', headers: asCustomer, body: JSON.stringify({ model }) },
          201,
        )) as { id: string }
        const started = performance.now()
        const res = await fetch(`${server.url}/chat/conversations/${conversation.id}/messages`, {
          method: 'POST',
          headers: asCustomer,
          body: JSON.stringify({ message: 'hello' }),
        })
        if (res.status !== 200) throw new Error(`send answered ${res.status}: ${await res.text()}`)
        return timeStream(res, started, 'event: token', /^event: token$/gm)
      }

      const warmup = Math.max(10, Math.floor(s.samples / 10))
      for (let i = 0; i < warmup; i++) await Promise.all([direct('bench-1'), through('bench-1')].map((p) => p.then(() => undefined)))
      const directMs: number[] = []
      const throughMs: number[] = []
      for (let i = 0; i < s.samples; i++) {
        // Alternate the order so that drift and warm caches favour neither path.
        if (i % 2 === 0) {
          directMs.push((await direct('bench-1')).firstMs)
          throughMs.push((await through('bench-1')).firstMs)
        } else {
          throughMs.push((await through('bench-1')).firstMs)
          directMs.push((await direct('bench-1')).firstMs)
        }
      }
      const directTokensPerSec = await relayRate(direct, s.streams, s.tokens)
      const throughTokensPerSec = await relayRate(through, s.streams, s.tokens)
      const r: ChatLatencyBackendResult = {
        backend,
        loadBefore,
        directP50Ms: median(directMs),
        directP90Ms: percentile(directMs, 0.9),
        throughP50Ms: median(throughMs),
        throughP90Ms: percentile(throughMs, 0.9),
        addedP50Ms: median(throughMs) - median(directMs),
        directTokensPerSec,
        throughTokensPerSec,
      }
      log(
        `  ${backend.padEnd(8)} first token p50 direct ${r.directP50Ms!.toFixed(2)} ms, through ${r.throughP50Ms!.toFixed(2)} ms → added ${r.addedP50Ms!.toFixed(2)} ms ` +
          `${r.addedP50Ms! <= TARGET_MS ? 'PASS' : 'ABOVE TARGET'}; tokens/s direct ${fmt(directTokensPerSec)}, through ${fmt(throughTokensPerSec)}`,
      )
      return r
    },
    { env: { OPENAI_BASE_URL: fake.url, CHAT_TIMEOUT_SECONDS: '30' } },
  )
}

/** Markdown table rows for bench/README.md. */
export function chatLatencyTable(result: ChatLatencyResult): string {
  const rows = result.backends.map((b) =>
    b.addedP50Ms === undefined
      ? `| ${b.backend} | ${b.skipped ?? `failed: ${b.error}`} | | | | | |`
      : `| ${b.backend} | ${b.directP50Ms!.toFixed(2)} / ${b.directP90Ms!.toFixed(2)} | ${b.throughP50Ms!.toFixed(2)} / ${b.throughP90Ms!.toFixed(2)} | **${b.addedP50Ms!.toFixed(2)}** | ${b.addedP50Ms! <= TARGET_MS ? 'pass' : 'above'} | ${fmt(b.directTokensPerSec!)} | ${fmt(b.throughTokensPerSec!)} |`,
  )
  return markdownTable(
    '| database | first token direct p50 / p90 ms | through the server p50 / p90 ms | added p50 ms | ≤ 2 ms | tokens/s direct | tokens/s relayed |',
    '|---|---:|---:|---:|---|---:|---:|',
    rows,
  )
}

export function parseArgs(argv: string[]): ChatLatencyOptions {
  return benchArgs<ChatLatencyOptions>(argv, { samples: 'samples', streams: 'streams', tokens: 'tokens' }).opts
}

export const command: BenchCommand<ChatLatencyResult> = { name: 'chat-latency', run: (argv) => benchChatLatency(parseArgs(argv)), table: chatLatencyTable }

if (import.meta.main) await benchMain(command)
