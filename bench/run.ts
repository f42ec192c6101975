/**
 * Runs the benches in bench/ (not part of `npm test`).
 *
 *   npm run bench                      every bench
 *   npm run bench -- auth-me           benches whose name or id contains a filter (P1 or auth)
 *   npm run bench -- auth-me --db=pglite --duration=3 --rounds=1
 *
 * Options of the form --key=value go to every selected bench. Results are printed and written to
 * bench/results/<name>.json (git-ignored); copy the printed table into bench/README.md.
 * Exits 1 when a bench fails to run; with --strict, also when a target is missed.
 */
import { authMeTable, benchAuthMe, parseArgs as authMeArgs, resultName as authMeResultName } from './auth-me'
import { benchEmbeddedBoot, embeddedBootTable } from './embedded-boot'
import { benchChatLatency, chatLatencyTable, parseArgs as chatLatencyArgs } from './chat-latency'
import { benchMemoryRecall, memoryRecallTable, parseArgs as memoryRecallArgs } from './memory-recall'
import { benchStorageUsage, parseArgs as storageUsageArgs, storageUsageTable } from './storage-usage'
import { cleanup, hookSignals, saveResult } from './support'

interface Bench {
  id: string
  name: string
  what: string
  run(argv: string[]): Promise<{ pass: boolean; failed?: boolean; table: string; result: unknown; file?: string }>
}

export const BENCHES: Bench[] = [
  {
    id: 'P1',
    name: 'auth-me',
    what: 'GET /auth/me ÷ GET /health throughput on one server (target ≥ 0.5)',
    async run(argv) {
      const result = await benchAuthMe(authMeArgs(argv))
      return { pass: result.pass, failed: result.failed, table: authMeTable(result), result, file: authMeResultName(result) }
    },
  },
  {
    id: 'P4',
    name: 'chat-latency',
    what: 'chat: server-added latency to the first token over the upstream’s own (target ≤ 2 ms p50), tokens/s relayed',
    async run(argv) {
      const result = await benchChatLatency(chatLatencyArgs(argv))
      return { pass: result.pass, failed: result.failed, table: chatLatencyTable(result), result }
    },
  },
  {
    id: 'P5',
    name: 'memory-recall',
    what: 'memory recall p95 at 100k memories with HNSW (target ≤ 15 ms) and the exact-scan fallback; HNSW recall@10 (target ≥ 0.95)',
    async run(argv) {
      const result = await benchMemoryRecall(memoryRecallArgs(argv))
      return { pass: result.pass, table: memoryRecallTable(result), result }
    },
  },
  {
    id: 'P7',
    name: 'embedded-boot',
    what: 'embedded PGlite: first start to healthy (≤ 1.5 s), restart (≤ 0.7 s), idle RSS (≤ 150 MB)',
    async run() {
      const result = await benchEmbeddedBoot()
      return { pass: result.pass, table: embeddedBootTable(result), result }
    },
  },
  {
    id: 'P8',
    name: 'storage-usage',
    what: 'GET /usage/storage latency at 100k ÷ 1k attachments of one customer (target ≤ 1.5: flat)',
    async run(argv) {
      const result = await benchStorageUsage(storageUsageArgs(argv))
      return { pass: result.pass, table: storageUsageTable(result), result }
    },
  },
]

/** Upper bound for a whole run; a stuck bench must not hold the machine. */
const WATCHDOG_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 20 * 60_000)

async function main(): Promise<number> {
  const argv = process.argv.slice(2)
  const filters = argv.filter((a) => !a.startsWith('--')).map((f) => f.toLowerCase())
  const strict = argv.includes('--strict')
  if (argv.includes('--list')) {
    for (const b of BENCHES) console.log(`${b.id.padEnd(4)} ${b.name.padEnd(12)} ${b.what}`)
    return 0
  }
  const selected = BENCHES.filter(
    (b) => filters.length === 0 || filters.some((f) => b.name.includes(f) || b.id.toLowerCase() === f),
  )
  if (selected.length === 0) {
    console.error(`no bench matches ${filters.join(', ')}; known: ${BENCHES.map((b) => `${b.id} ${b.name}`).join(', ')}`)
    return 1
  }

  let failed = false
  let missed = false
  for (const bench of selected) {
    console.log(`\n== ${bench.id} ${bench.name}: ${bench.what}`)
    try {
      const { pass, failed: broke, table, result, file } = await bench.run(argv)
      console.log('\n' + table)
      console.log(`results: ${saveResult(file ?? bench.name, result)}`)
      if (broke) failed = true
      if (!pass) missed = true
    } catch (err) {
      failed = true
      console.error(`${bench.name} failed: ${(err as Error).stack ?? err}`)
      await cleanup()
    }
  }
  return failed || (strict && missed) ? 1 : 0
}

hookSignals()
const watchdog = setTimeout(async () => {
  console.error(`bench: still running after ${WATCHDOG_MS / 1000}s, stopping`)
  await cleanup()
  process.exit(1)
}, WATCHDOG_MS)
const code = await main()
clearTimeout(watchdog)
await cleanup()
process.exit(code)
