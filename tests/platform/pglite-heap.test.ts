import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { heapCollector } from '../../src/platform/db/pglite-heap'
import { sample } from '../support/metrics'
import { cleanUp, freePort, start, tempDir, untilHealthy } from '../support/server-process'
import { until } from '../support/wait'

afterAll(cleanUp)

const ROOT = join(import.meta.dir, '../..')

// The embedded server collects the young generation itself while it is busy, because the engine
// counts PGlite's WebAssembly memory into the heap's size and so collects rarely (bench/README.md,
// P7, session 58: 50–130 MB less peak RSS under load).

test('the engine counts an open PGlite into the heap beyond the memory it holds (why the server collects itself)', () => {
  // In a process of its own (this one holds the suite's databases already), on disk as the server opens it.
  const dir = mkdtempSync(join(tmpdir(), 'ecobase-heap-'))
  const script = `
    import { heapStats } from 'bun:jsc'
    import { openPglite } from './src/platform/db'
    import { copySeed } from './src/platform/db/seed'
    const dataDir = process.argv[1] + '/pglite'
    copySeed(dataDir)
    const database = await openPglite({ dataDir })
    Bun.gc(true)
    console.log(JSON.stringify({ counted: heapStats().extraMemorySize, held: process.memoryUsage().arrayBuffers }))
    await database.close()`
  const run = Bun.spawnSync([process.execPath, '-e', script, dir], { cwd: ROOT, stderr: 'inherit' })
  rmSync(dir, { recursive: true, force: true })
  const { counted, held } = JSON.parse(run.stdout.toString()) as { counted: number; held: number }
  expect(held).toBeGreaterThan(128 * 1024 * 1024)
  expect(counted).toBeGreaterThan(1.5 * held)
})

test('collects when the process used CPU since the last check, and not when it was idle', () => {
  let cpu = 1_000
  let collected = 0
  const collector = heapCollector({ cpuMs: () => cpu, collect: () => collected++ })
  cpu += 2
  expect(collector.tick()).toBe(false)
  cpu += 25
  expect(collector.tick()).toBe(true)
  expect(collector.tick()).toBe(false)
  cpu += 10
  expect(collector.tick()).toBe(true)
  expect(collected).toBe(2)
})

test('the embedded server collects while it serves, and counts it in ecobase_heap_collections_total', async () => {
  const token = 'metrics-token-for-the-tests-0123'
  const port = freePort()
  const proc = start({ DATA_DIR: tempDir(), PORT: String(port), METRICS_TOKEN: token, RATE_LIMIT_ANONYMOUS: '1000000' })
  try {
    await untilHealthy(port, proc)
    const base = `http://127.0.0.1:${port}`
    let collections = 0
    await until(async () => {
      // Busy: a burst of database reads, then a look at the count.
      await Promise.all(Array.from({ length: 200 }, () => fetch(`${base}/auth/first-run`).then((r) => r.arrayBuffer())))
      const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text()
      collections = sample(text, 'ecobase_heap_collections_total') ?? 0
      return collections > 0
    })
    expect(collections).toBeGreaterThan(0)
  } finally {
    proc.kill()
    await proc.exited
  }
}, 60_000)
