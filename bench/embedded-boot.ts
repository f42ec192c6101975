/**
 * P7: embedded mode (no DATABASE_URL): first start to healthy on an empty DATA_DIR, restart on
 * the same DATA_DIR, and idle RSS after the start settles; the median of five, each the server as
 * `npm start` runs it (`bun src/index.ts`, job workers on). `npm install` builds the PGlite seed
 * these starts copy (src/platform/db/seed.ts); without it the first start runs initdb.
 * Targets (issue 30): first start ≤ 1.0 s, restart ≤ 0.5 s, idle RSS ≤ 150 MB.
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

export const TARGETS = { firstMs: 1000, restartMs: 500, idleRssMb: 150 }

export async function benchEmbeddedBoot(rounds = 5): Promise<EmbeddedBootResult> {
  const first: number[] = []
  const restart: number[] = []
  const rss: number[] = []
  const dirs: string[] = []
  try {
    for (let i = 0; i < rounds; i++) {
      const dataDir = join(mkdtempSync(join(tmpdir(), 'ecobase-boot-')), 'data')
      dirs.push(join(dataDir, '..'))
      for (const times of [first, restart]) {
        // Each start begins on a quiet disk: the writes of the one before would land in its time.
        // The data directories are removed after the last start, not between them: on this
        // machine's disk (ext4 with online discard) file creation is slower for seconds after a
        // removal, and a first start creates 1,200 files (bench/README.md, P7).
        Bun.spawnSync(['sync'])
        const server = await startServer({ dataDir, label: 'embedded', env: { JOBS: 'on' } })
        times.push(server.bootMs)
        await sleep(3000)
        rss.push(rssMb(server.pid))
        await server.stop()
      }
    }
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  }
  const result = { firstMs: median(first), restartMs: median(restart), idleRssMb: median(rss), pass: false }
  result.pass = result.firstMs <= TARGETS.firstMs && result.restartMs <= TARGETS.restartMs && result.idleRssMb <= TARGETS.idleRssMb
  return result
}

export function embeddedBootTable(r: EmbeddedBootResult): string {
  return [
    '| measure | median | target |',
    '|---|---:|---:|',
    `| first start to healthy | ${fmt(r.firstMs)} ms | ≤ ${fmt(TARGETS.firstMs)} ms |`,
    `| restart to healthy | ${fmt(r.restartMs)} ms | ≤ ${TARGETS.restartMs} ms |`,
    `| idle RSS | ${fmt(r.idleRssMb)} MB | ≤ ${TARGETS.idleRssMb} MB |`,
  ].join('\n')
}
