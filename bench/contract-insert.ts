/**
 * Contract row inserts per second as a ratio of a hand-written insert route, in one run, on
 * embedded PGlite and on PostgreSQL, in-process through `app.handle`: `POST /contract/contracts/<name>/rows`
 * (definition read under a share lock, every value checked, one unique column claimed in the same
 * transaction) against `POST /chat/conversations` (one plain insert). The two alternate in rounds so
 * machine drift hits both alike.
 *
 *   npx bun bench/contract-insert.ts [--db=pglite,postgres] [--requests=2000] [--rounds=3]
 */
import {
  BACKENDS,
  type Backend,
  benchArgs,
  benchMain,
  type BenchCommand,
  eachBackend,
  fmt,
  inProcessApp,
  markdownTable,
  median,
  type RunInfo,
  runInfo,
} from './support'

export interface ContractInsertOptions {
  backends?: Backend[]
  requests?: number
  rounds?: number
}

interface BackendResult {
  backend: Backend
  skipped?: string
  error?: string
  contractPerSec?: number
  handWrittenPerSec?: number
  ratio?: number
}

export interface ContractInsertResult {
  pass: boolean
  failed?: boolean
  run: RunInfo
  requests: number
  backends: BackendResult[]
}

const COLUMNS = [
  { name: 'title', type: 'text', nullable: false },
  { name: 'total', type: 'number', default: 0 },
  { name: 'paid', type: 'boolean', default: false },
  { name: 'due', type: 'timestamp' },
  { name: 'code', type: 'text', unique: true },
]

/** Sequential requests per second of `send(i)` for i in [from, from + count). */
async function perSecond(count: number, from: number, send: (i: number) => Promise<unknown>): Promise<number> {
  const started = performance.now()
  for (let i = from; i < from + count; i++) await send(i)
  return count / ((performance.now() - started) / 1000)
}

export async function benchContractInsert(options: ContractInsertOptions = {}): Promise<ContractInsertResult> {
  const requests = options.requests ?? 2000
  const rounds = options.rounds ?? 3
  const log = (line: string) => console.error(line)
  const backends = await eachBackend(options.backends ?? BACKENDS, log, async (backend): Promise<BackendResult> => {
    const bench = await inProcessApp(backend)
    try {
      const admin = { token: bench.owner.token, headers: { 'x-ecosystem-id': bench.owner.ecosystemId } }
      await bench.call('POST', '/contract/contracts', { ...admin, body: { name: 'orders', columns: COLUMNS } })
      const token = bench.customer.token
      const contract = (i: number) =>
        bench.call('POST', '/contract/contracts/orders/rows', {
          token,
          body: { title: `order ${i}`, total: i / 10, due: '2026-12-01T00:00:00Z', code: `code-${i}` },
        })
      const handWritten = (i: number) => bench.call('POST', '/chat/conversations', { token, body: { title: `conversation ${i}` } })
      const contractRates: number[] = []
      const handRates: number[] = []
      for (let round = 0; round < rounds; round++) {
        handRates.push(await perSecond(requests, round * requests, handWritten))
        contractRates.push(await perSecond(requests, round * requests, contract))
        log(`  ${backend} round ${round + 1}: contract rows ${fmt(contractRates.at(-1)!)}/s, conversations ${fmt(handRates.at(-1)!)}/s`)
      }
      const contractPerSec = median(contractRates)
      const handWrittenPerSec = median(handRates)
      return { backend, contractPerSec, handWrittenPerSec, ratio: contractPerSec / handWrittenPerSec }
    } finally {
      await bench.close()
    }
  })
  return { pass: true, failed: backends.some((b) => b.error), run: runInfo(), requests, backends }
}

export function contractInsertTable(result: ContractInsertResult): string {
  const rows = result.backends.map((b) =>
    b.ratio === undefined
      ? `| ${b.backend} | ${b.skipped ?? b.error} | | |`
      : `| ${b.backend} | ${fmt(b.contractPerSec!)} | ${fmt(b.handWrittenPerSec!)} | **${b.ratio.toFixed(2)}** |`,
  )
  return markdownTable('| database | contract rows/s | hand-written inserts/s (POST /chat/conversations) | ratio |', '|---|---:|---:|---:|', rows)
}

export const command: BenchCommand<ContractInsertResult> = {
  name: 'contract-insert',
  run: (argv) => benchContractInsert(benchArgs<ContractInsertOptions>(argv, { requests: 'requests', rounds: 'rounds' }).opts),
  table: contractInsertTable,
}

if (import.meta.main) await benchMain(command)
