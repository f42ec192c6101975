/**
 * Runs the benches in bench/ (not part of `npm test`).
 *
 *   npm run bench                      every bench
 *   npm run bench -- auth-me           benches whose name or id contains a filter (P1 or auth)
 *   npm run bench -- auth-me --db=pglite --duration=3 --rounds=1
 *   npm run bench -- compare --base <commit>   this checkout against a base commit on the hot paths (bench/compare.ts)
 *
 * Options of the form --key=value go to every selected bench. Results are printed and written to
 * bench/results/<name>.json (git-ignored); copy the printed table into bench/README.md.
 * Exits 1 when a bench fails to run; with --strict, also when a target is missed.
 */
import { command as announcement } from './announcement'
import { command as backup } from './backup'
import { command as authMe } from './auth-me'
import { benchEmbeddedBoot, embeddedBootTable } from './embedded-boot'
import { command as leaderboard } from './leaderboard'
import { command as login } from './login'
import { command as chatLatency } from './chat-latency'
import { compareMain } from './compare'
import { command as contractInsert } from './contract-insert'
import { command as crashSends } from './crash-sends'
import { command as docsPaint } from './docs-paint'
import { command as derivedList } from './derived-list'
import { command as emailSend } from './email-send'
import { command as entitlementCheck } from './entitlement-check'
import { command as feedFanout } from './feed-fanout'
import { command as fuzz } from './fuzz'
import { command as memoryRecall } from './memory-recall'
import { command as rateLimit } from './rate-limit'
import { command as realtimeFanout } from './realtime-fanout'
import { command as refresh } from './refresh'
import { command as search } from './search'
import { command as soak } from './soak-embedded'
import { command as searchBox } from './search-box'
import { command as storageUsage } from './storage-usage'
import { command as webhookDeliveries } from './webhook-deliveries'
import { type BenchCommand, cleanup, hookSignals, printResult } from './support'
import { BACKENDS } from './support/backends'

interface Bench extends BenchCommand {
  id: string
  what: string
}

export const BENCHES: Bench[] = [
  {
    ...authMe,
    id: 'P1',
    what: 'GET /auth/me ÷ GET /health throughput on one server (target ≥ 0.5)',
  },
  {
    ...login,
    id: 'P2',
    what: 'POST /auth/login throughput at 50 connections, argon2id at the configured cost (target ≥ 35/s)',
  },
  {
    ...refresh,
    id: 'P3',
    what: 'refresh-token rotations/s, account (POST /auth/refresh) and OAuth (token endpoint), on PostgreSQL (target ≥ 5k/s) and PGlite',
  },
  {
    ...chatLatency,
    id: 'P4',
    what: 'chat: server-added latency to the first token over the upstream’s own (target ≤ 2 ms p50), tokens/s relayed',
  },
  {
    ...memoryRecall,
    id: 'P5',
    what: 'memory recall p95 at 100k memories with HNSW (target ≤ 15 ms) and the exact-scan fallback; HNSW recall@10 (target ≥ 0.95)',
  },
  {
    ...search,
    id: 'P6',
    what: 'GET /search/chat/messages p95 over 1M chat messages, per customer shape and query kind (target ≤ 20 ms); the leaderboard half is P10',
  },
  {
    ...searchBox,
    id: 'P6b',
    what: 'GET /search/threads|replies|documents|notes p95 at 1M rows each: rare and common words, two words, a phrase, an exclusion, a prefix (target ≤ 20 ms)',
  },
  {
    id: 'P7',
    name: 'embedded-boot',
    what: 'embedded PGlite: first start to healthy (≤ 1.0 s), restart (≤ 0.5 s), idle RSS (≤ 150 MB); median of five',
    run: () => benchEmbeddedBoot(),
    table: embeddedBootTable,
  },
  {
    ...storageUsage,
    id: 'P8',
    what: 'GET /usage/storage latency at 100k ÷ 1k attachments of one customer (target ≤ 1.5: flat)',
  },
  {
    ...derivedList,
    id: 'P9',
    what: 'a table-derived list (GET /userdata/notes) with a filter and a sort at 100k rows of one customer, p95 (target ≤ 10 ms on PostgreSQL)',
  },
  {
    ...contractInsert,
    id: 'P9b',
    what: 'contract row inserts/s as a ratio of a hand-written insert route (POST /chat/conversations), same run (report)',
  },
  {
    ...leaderboard,
    id: 'P10',
    what: 'GET /community/leaderboard p95 per period, first and a deep page, at 1M point rows over 100k customers (target ≤ 20 ms on both databases)',
  },
  {
    ...announcement,
    id: 'P11',
    what: 'announcement fan-out to 100k customers: request to every notification written and e-mail job enqueued (≤ 30 s), peak RSS (≤ +100 MB)',
  },
  {
    ...emailSend,
    id: 'P11b',
    what: 'one e-mail through POST /messaging/email against a bare nodemailer send to the same SMTP server, ms per send (report)',
  },
  {
    ...webhookDeliveries,
    id: 'P12',
    what: 'webhook deliveries/s to a local receiver through the queue, against bare signed POSTs (report)',
  },
  {
    ...feedFanout,
    id: 'P12b',
    what: 'site feed: commit to item on 1,000 open SSE streams, one item each, p95 (target ≤ 50 ms)',
  },
  {
    ...realtimeFanout,
    id: 'P13',
    what: 'realtime: 10,000 streams on one replica, 1,000 changes/s over 100 ecosystems: commit → event p95 (target ≤ 100 ms), RSS growth (≤ +300 MB), 0 misdelivered (PostgreSQL)',
  },
  {
    ...crashSends,
    id: 'P15',
    what: 'kill -9 during 300 webhooks and 200 e-mails, restart: 0 lost, all delivered ≤ 2 min, e-mail repeats ≤ those in flight',
  },
  {
    ...backup,
    id: 'P16',
    what: 'backups of an embedded instance with a 1 GB database and 256 MB of files: the server’s memory over idle (target ≤ 100 MB) and the longest write (target ≤ 1 s) during its backup; `ecobase backup` / `verify` / `restore` time and peak memory',
  },
  {
    ...soak,
    id: 'P17',
    what: 'embedded soak: 30 minutes of mixed load with jobs on; database probes over 5 s (target 0), SIGTERM with open streams to exit (target < 1 s)',
  },
  {
    ...entitlementCheck,
    id: 'B1',
    what: 'billing: what the entitlement check adds to an upload presign and a chat send, p50 (target ≤ 0.2 ms)',
  },
  {
    ...rateLimit,
    id: 'RL1',
    what: 'API rate limits: what they add to GET /auth/me and an anonymous GET, limits on vs RATE_LIMITS=off in one process, and the limiter alone (target ≤ 50 µs p50)',
  },
  {
    ...docsPaint,
    id: 'P20',
    what: 'the API reference (/openapi) in Chromium: first contentful paint on a cold cache (target ≤ 1 s), first operation listed, bytes transferred',
  },
  {
    ...fuzz,
    id: 'I24',
    what: 'issue 24 fuzz: every OpenAPI operation and the derived lists / contract rows, hostile input under every kind of credential: 0 answers ≥ 500 over ≥ 25,000 requests per database',
  },
]

/**
 * Upper bound for a whole run; a stuck bench must not hold the machine. The soak (P17) runs for
 * `--minutes` (30) on each database of `--db` (both), so a run with it gets that much more.
 */
function watchdogMs(argv: string[]): number {
  if (process.env.BENCH_TIMEOUT_MS) return Number(process.env.BENCH_TIMEOUT_MS)
  if (argv[0] === 'compare') return 45 * 60_000
  const option = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1]
  const filters = argv.filter((a) => !a.startsWith('--')).map((f) => f.toLowerCase())
  const soak = filters.length === 0 || filters.some((f) => 'soak-embedded'.includes(f) || f === 'p17')
  const soakMinutes = soak ? Number(option('minutes') ?? 30) * (option('db')?.split(',').length ?? BACKENDS.length) : 0
  return (20 + soakMinutes) * 60_000
}
const WATCHDOG_MS = watchdogMs(process.argv.slice(2))

async function main(): Promise<number> {
  const argv = process.argv.slice(2)
  if (argv[0] === 'compare') return compareMain(argv.slice(1))
  const filters = argv.filter((a) => !a.startsWith('--')).map((f) => f.toLowerCase())
  const strict = argv.includes('--strict')
  if (argv.includes('--list')) {
    for (const b of BENCHES) console.log(`${b.id.padEnd(4)} ${b.name.padEnd(12)} ${b.what}`)
    console.log(`P19  compare      this checkout against a base commit on the hot paths, alternately in one run: npm run bench -- compare --base <commit>`)
    return 0
  }
  const selected = BENCHES.filter((b) => filters.length === 0 || filters.some((f) => b.name.includes(f) || b.id.toLowerCase() === f))
  if (selected.length === 0) {
    console.error(`no bench matches ${filters.join(', ')}; known: ${BENCHES.map((b) => `${b.id} ${b.name}`).join(', ')}`)
    return 1
  }

  let failed = false
  let missed = false
  for (const bench of selected) {
    console.log(`\n== ${bench.id} ${bench.name}: ${bench.what}`)
    try {
      const result = await bench.run(argv)
      printResult(bench, result)
      if (result.failed) failed = true
      if (!result.pass) missed = true
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
