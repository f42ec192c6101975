/**
 * P7: embedded mode (no DATABASE_URL): first start to healthy on an empty DATA_DIR, restart on
 * the same DATA_DIR, and idle RSS after the start settles; the median of five, each the server as
 * `npm start` runs it (`bun src/index.ts`, job workers on; its bundle when fresh, src/bundle.ts).
 * `npm install` builds the PGlite seed these starts copy (src/platform/db/seed.ts); without it the
 * first start runs initdb. Each round also reads the embedded database alone on the same data
 * directory (bench/support/pglite-alone.ts), so the restart and the memory figure have their
 * calibration in the run: how long the database alone takes from spawn to open, and its memory.
 * Then, reported without a target, memory under load: one more start, `GET /auth/me` at 50
 * connections and a customer's `GET /chat/conversations` (a database read) at 20, 10 s each with wrk,
 * each on a start of its own, and the server's peak RSS (VmHWM) after it.
 * Targets (issue 30): first start ≤ 1.0 s, restart ≤ 0.5 s, idle RSS ≤ 150 MB.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { customerOf, fmt, hasWrk, median, registerUser, sleep, spawnHelper, startServer, wrk } from './support'

export interface EmbeddedBootResult {
  firstMs: number
  restartMs: number
  idleRssMb: number
  /** The embedded database alone on the same data directory (bench/support/pglite-alone.ts), idle as long. */
  databaseAloneRssMb: number
  /** The same, from its spawn to its database open (the server's restart does that and more). */
  databaseAloneReadyMs: number
  /** Under load (none without wrk): requests per second and the peak RSS after each route's run. */
  load?: { route: string; connections: number; rps: number; peakRssMb: number }[]
  pass: boolean
}

const statusMb = (pid: number, field: 'VmRSS' | 'VmHWM') =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024
const rssMb = (pid: number) => statusMb(pid, 'VmRSS')

export const TARGETS = { firstMs: 1000, restartMs: 500, idleRssMb: 150 }

export async function benchEmbeddedBoot(rounds = 5): Promise<EmbeddedBootResult> {
  const first: number[] = []
  const restart: number[] = []
  const rss: number[] = []
  const alone: number[] = []
  const aloneReady: number[] = []
  const dirs: string[] = []
  let load: EmbeddedBootResult['load']
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
      const database = await databaseAlone(dataDir)
      alone.push(database.rssMb)
      aloneReady.push(database.readyMs)
    }
    load = hasWrk() ? await underLoad(dirs.at(-1)!) : undefined
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  }
  const result = {
    firstMs: median(first),
    restartMs: median(restart),
    idleRssMb: median(rss),
    databaseAloneRssMb: median(alone),
    databaseAloneReadyMs: median(aloneReady),
    load,
    pass: false,
  }
  result.pass = result.firstMs <= TARGETS.firstMs && result.restartMs <= TARGETS.restartMs && result.idleRssMb <= TARGETS.idleRssMb
  return result
}

/** Memory under load: per route, a restart of the last round's data directory and 10 s of wrk. */
async function underLoad(root: string): Promise<NonNullable<EmbeddedBootResult['load']>> {
  const routes = [
    { route: 'GET /auth/me', path: '/auth/me', as: 'account', connections: 50 },
    { route: 'GET /chat/conversations', path: '/chat/conversations', as: 'customer', connections: 20 },
  ] as const
  const load: NonNullable<EmbeddedBootResult['load']> = []
  for (const r of routes) {
    const server = await startServer({ dataDir: join(root, 'data'), label: 'embedded, under load', env: { JOBS: 'on' } })
    try {
      const account = await registerUser(server.url)
      const customer = await customerOf(server.url, account.token)
      for (let i = 0; i < 5; i++) {
        await fetch(`${server.url}/chat/conversations`, {
          method: 'POST',
          headers: { authorization: `Bearer ${customer.token}`, 'content-type': 'application/json' },
          body: '{}',
        })
      }
      const token = r.as === 'account' ? account.token : customer.token
      const run = await wrk({ url: `${server.url}${r.path}`, connections: r.connections, durationSec: 10, headers: { authorization: `Bearer ${token}` } })
      load.push({ route: r.route, connections: r.connections, rps: run.rps, peakRssMb: statusMb(server.pid, 'VmHWM') })
    } finally {
      await server.stop()
    }
  }
  return load
}

/** The embedded database alone on `dataDir`: ms from its spawn to its open, and its resident memory read 3 s later, as the server's is. */
async function databaseAlone(dataDir: string): Promise<{ readyMs: number; rssMb: number }> {
  Bun.spawnSync(['sync'])
  const spawned = performance.now()
  const child = await spawnHelper([process.execPath, join(import.meta.dir, 'support', 'pglite-alone.ts')], 'the database alone', {
    PATH: process.env.PATH!,
    DATA_DIR: dataDir,
  })
  try {
    const readyMs = performance.now() - spawned
    await sleep(3000)
    return { readyMs, rssMb: rssMb(child.pid) }
  } finally {
    await child.stop()
  }
}

export function embeddedBootTable(r: EmbeddedBootResult): string {
  return [
    '| measure | median | target |',
    '|---|---:|---:|',
    `| first start to healthy | ${fmt(r.firstMs)} ms | ≤ ${fmt(TARGETS.firstMs)} ms |`,
    `| restart to healthy | ${fmt(r.restartMs)} ms | ≤ ${TARGETS.restartMs} ms |`,
    `| the embedded database alone, spawn to open (calibration) | ${fmt(r.databaseAloneReadyMs)} ms | |`,
    `| the server's own share of a restart (restart − the database alone's open) | ${fmt(r.restartMs - r.databaseAloneReadyMs)} ms | |`,
    `| idle RSS | ${fmt(r.idleRssMb)} MB | ≤ ${TARGETS.idleRssMb} MB |`,
    `| the embedded database alone, idle (calibration) | ${fmt(r.databaseAloneRssMb)} MB | |`,
    `| the server's own share (idle RSS − the database alone) | ${fmt(r.idleRssMb - r.databaseAloneRssMb)} MB | |`,
    ...(r.load ?? []).map(
      (l) => `| peak RSS after ${l.route} at ${l.connections} connections for 10 s (${fmt(l.rps)} req/s) | ${fmt(l.peakRssMb)} MB | (report) |`,
    ),
  ].join('\n')
}
