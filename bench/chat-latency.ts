/**
 * P4: server-added latency to the first token of a chat reply, over the upstream's own, and
 * tokens/s relayed per stream. A real server child (PGlite and PostgreSQL) talks to the local
 * OpenAI-compatible server of tests/support, run in a process of its own like a real upstream;
 * this process measures, in alternating order, the upstream directly, the same reply through a
 * bare relay (bench/support/bare-relay.ts: Elysia and the server's OpenAI adapter, nothing else)
 * and through POST /chat/conversations/{id}/messages (customer token, fresh conversation per
 * sample). Target: p50(through) − p50(direct) ≤ 2 ms; the bare relay's own addition is the part
 * of it no server built on this framework and SDK avoids, the rest is Ecobase's own.
 *
 * Each server is first sent WARMUP rounds of every path untimed: a young server's compilers (the
 * JIT's, and PGlite's WebAssembly tier-up) take CPU from the 2 cores for its first thousand or so
 * sends, so fewer rounds time its warm-up, not its steady state (bench/README.md, P4, session 65).
 *
 *   npx bun bench/chat-latency.ts [--db=pglite,postgres] [--samples=200] [--warmup=1000] [--streams=5] [--tokens=2000]
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
  percentile,
  registerUser,
  ROOT,
  type RunInfo,
  runInfo,
  spawnHelper,
  withServer,
} from './support'

export const TARGET_MS = 2
/** Untimed rounds of every path before the samples (see above). */
const WARMUP = 1000

export interface ChatLatencyOptions {
  backends?: Backend[]
  /** First-token samples per path. */
  samples?: number
  /** Untimed rounds of every path before the samples. */
  warmup?: number
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
  bareP50Ms?: number
  /** p50(bare relay) − p50(direct): the framework, the SDK and the extra hop. */
  bareAddedP50Ms?: number
  /** p50(through) − p50(bare relay): what Ecobase adds over a bare relay. */
  ownP50Ms?: number
  directTokensPerSec?: number
  bareTokensPerSec?: number
  throughTokensPerSec?: number
}

export interface ChatLatencyResult extends RunInfo {
  name: 'chat-latency'
  targetMs: number
  settings: { samples: number; warmup: number; streams: number; tokens: number }
  backends: ChatLatencyBackendResult[]
  pass: boolean
  failed: boolean
}

export async function benchChatLatency(options: ChatLatencyOptions = {}): Promise<ChatLatencyResult> {
  const log = options.log ?? ((l: string) => console.log(l))
  const settings = { samples: options.samples ?? 200, warmup: options.warmup ?? WARMUP, streams: options.streams ?? 5, tokens: options.tokens ?? 2000 }
  log(
    `P4 chat-latency: first token through the server vs a bare relay vs from the upstream, ${settings.samples} samples each after ${settings.warmup} untimed rounds; ${settings.streams} streams of ${settings.tokens} tokens; target ≤ ${TARGET_MS} ms added (p50)`,
  )
  const fake = await startUpstream()
  const bare = await startBareRelay(fake.url).catch(async (err) => {
    await fake.stop()
    throw err
  })
  const results = await eachBackend(options.backends ?? BACKENDS, log, (backend) => measure(backend, fake, bare, settings, log), { catchErrors: true }).finally(
    () => Promise.all([bare.stop(), fake.stop()]),
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
  const child = await spawnHelper(
    [process.execPath, '-e', `const { startFakeOpenAi } = await import(${entry}); console.log(startFakeOpenAi().url)`],
    'the fake OpenAI server',
  )
  return { url: child.line, stop: child.stop }
}

/** bench/support/bare-relay.ts in a child process, relaying `upstream`; resolves once it listens. */
async function startBareRelay(upstream: string): Promise<{ url: string; stop(): Promise<void> }> {
  const child = await spawnHelper([process.execPath, join(ROOT, 'bench/support/bare-relay.ts'), upstream], 'the bare relay')
  return { url: child.line, stop: child.stop }
}

async function measure(backend: Backend, fake: { url: string }, bare: { url: string }, s: ChatLatencyResult['settings'], log: (l: string) => void) {
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
      const relayed = async (model: string) => {
        const started = performance.now()
        const res = await fetch(bare.url, { method: 'POST', headers: json, body: JSON.stringify({ model, message: 'hello' }) })
        return timeStream(res, started, 'event: token', /^event: token$/gm)
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

      const paths = [direct, relayed, through]
      for (let i = 0; i < s.warmup; i++) for (const path of paths) await path('bench-1')
      const times = paths.map((): number[] => [])
      for (let i = 0; i < s.samples; i++) {
        // Rotate the order so that drift and warm caches favour no path.
        for (let j = 0; j < paths.length; j++) {
          const k = (i + j) % paths.length
          times[k]!.push((await paths[k]!('bench-1')).firstMs)
        }
      }
      const [directMs, bareMs, throughMs] = times as [number[], number[], number[]]
      const directTokensPerSec = await relayRate(direct, s.streams, s.tokens)
      const bareTokensPerSec = await relayRate(relayed, s.streams, s.tokens)
      const throughTokensPerSec = await relayRate(through, s.streams, s.tokens)
      const r: ChatLatencyBackendResult = {
        backend,
        loadBefore,
        directP50Ms: median(directMs),
        directP90Ms: percentile(directMs, 0.9),
        throughP50Ms: median(throughMs),
        throughP90Ms: percentile(throughMs, 0.9),
        addedP50Ms: median(throughMs) - median(directMs),
        bareP50Ms: median(bareMs),
        bareAddedP50Ms: median(bareMs) - median(directMs),
        ownP50Ms: median(throughMs) - median(bareMs),
        directTokensPerSec,
        bareTokensPerSec,
        throughTokensPerSec,
      }
      log(
        `  ${backend.padEnd(8)} first token p50 direct ${r.directP50Ms!.toFixed(2)} ms, bare relay ${r.bareP50Ms!.toFixed(2)} ms, through ${r.throughP50Ms!.toFixed(2)} ms → added ${r.addedP50Ms!.toFixed(2)} ms ` +
          `${r.addedP50Ms! <= TARGET_MS ? 'PASS' : 'ABOVE TARGET'} (a bare relay adds ${r.bareAddedP50Ms!.toFixed(2)}, Ecobase ${r.ownP50Ms!.toFixed(2)}); ` +
          `tokens/s direct ${fmt(directTokensPerSec)}, bare relay ${fmt(bareTokensPerSec)}, through ${fmt(throughTokensPerSec)}`,
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
      ? `| ${b.backend} | ${b.skipped ?? `failed: ${b.error}`} | | | | | | | | |`
      : `| ${b.backend} | ${b.directP50Ms!.toFixed(2)} / ${b.directP90Ms!.toFixed(2)} | ${b.throughP50Ms!.toFixed(2)} / ${b.throughP90Ms!.toFixed(2)} | **${b.addedP50Ms!.toFixed(2)}** | ${b.addedP50Ms! <= TARGET_MS ? 'pass' : 'above'} | ${b.bareAddedP50Ms!.toFixed(2)} | ${b.ownP50Ms!.toFixed(2)} | ${fmt(b.directTokensPerSec!)} | ${fmt(b.bareTokensPerSec!)} | ${fmt(b.throughTokensPerSec!)} |`,
  )
  return markdownTable(
    '| database | first token direct p50 / p90 ms | through the server p50 / p90 ms | added p50 ms | ≤ 2 ms | of it a bare relay | of it Ecobase | tokens/s direct | tokens/s bare relay | tokens/s relayed |',
    '|---|---:|---:|---:|---|---:|---:|---:|---:|---:|',
    rows,
  )
}

export function parseArgs(argv: string[]): ChatLatencyOptions {
  return benchArgs<ChatLatencyOptions>(argv, { samples: 'samples', warmup: 'warmup', streams: 'streams', tokens: 'tokens' }).opts
}

export const command: BenchCommand<ChatLatencyResult> = { name: 'chat-latency', run: (argv) => benchChatLatency(parseArgs(argv)), table: chatLatencyTable }

if (import.meta.main) await benchMain(command)
