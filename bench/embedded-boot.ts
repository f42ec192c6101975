/**
 * P7: embedded mode (no DATABASE_URL): first start to healthy on an empty DATA_DIR, restart on
 * the same DATA_DIR, and idle RSS after the start settles. `npm install` builds the PGlite seed
 * these starts copy (src/platform/db/seed.ts); without it the first start runs initdb.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fmt, median, sleep, startServer } from './support'

export interface EmbeddedBootResult {
  firstMs: number
  restartMs: number
  idleRssMb: number
  pass: boolean
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024

export async function benchEmbeddedBoot(rounds = 3): Promise<EmbeddedBootResult> {
  const first: number[] = []
  const restart: number[] = []
  const rss: number[] = []
  for (let i = 0; i < rounds; i++) {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'ecobase-boot-')), 'data')
    try {
      for (const times of [first, restart]) {
        const server = await startServer({ dataDir, label: 'embedded' })
        times.push(server.bootMs)
        await sleep(3000)
        rss.push(rssMb(server.pid))
        await server.stop()
      }
    } finally {
      rmSync(join(dataDir, '..'), { recursive: true, force: true })
    }
  }
  const result = { firstMs: median(first), restartMs: median(restart), idleRssMb: median(rss), pass: false }
  result.pass = result.firstMs <= 1500 && result.restartMs <= 700 && result.idleRssMb <= 150
  return result
}

export function embeddedBootTable(r: EmbeddedBootResult): string {
  return [
    '| measure | median | target |',
    '|---|---:|---:|',
    `| first start to healthy | ${fmt(r.firstMs)} ms | ≤ 1500 ms |`,
    `| restart to healthy | ${fmt(r.restartMs)} ms | ≤ 700 ms |`,
    `| idle RSS | ${fmt(r.idleRssMb)} MB | ≤ 150 MB |`,
  ].join('\n')
}
