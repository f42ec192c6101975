/**
 * P16: backups of an embedded instance with `sizeMb` of local files (random bytes: gzip gains
 * nothing, as for photos). A real server (JOBS=on) answers GET /auth/me in a loop while it backs
 * itself up (POST /system/backups): p95 during ÷ p95 before. Then, stopped, `npx ecobase backup`
 * and `restore` of the same DATA_DIR: MB/s of what they read.
 *
 *   npx bun bench/backup.ts [--size=1024]
 */
import { spawnSync } from 'node:child_process'
import { randomFillSync } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { verifyBackup } from '../src/platform/backup/restore'
import { benchArgs, benchMain, type BenchCommand, fmt, markdownTable, percentile, ROOT, type RunInfo, runInfo, startServer } from './support'

export interface BackupBenchOptions {
  sizeMb?: number
}

export interface BackupBenchResult {
  pass: boolean
  failed?: boolean
  run: RunInfo
  sizeMb: number
  archiveMb: number
  p95BeforeMs: number
  p95DuringMs: number
  serviceBackupSec: number
  backupMbPerSec: number
  restoreMbPerSec: number
}

const FILE_MB = 16

/** p95 of sequential GET /auth/me calls while `running()` says so (at least `minMs`). */
async function meLatency(url: string, token: string, running: () => boolean, minMs: number): Promise<number> {
  const times: number[] = []
  const started = performance.now()
  while (running() || performance.now() - started < minMs) {
    const t0 = performance.now()
    const res = await fetch(`${url}/auth/me`, { headers: { authorization: `Bearer ${token}` } })
    await res.arrayBuffer()
    times.push(performance.now() - t0)
  }
  return percentile(times, 95)
}

function ecobase(dataDir: string, args: string[]): number {
  const started = performance.now()
  const run = spawnSync('node', [join(ROOT, 'bin', 'ecobase.mjs'), ...args], { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' }, encoding: 'utf8' })
  if (run.status !== 0) throw new Error(`ecobase ${args.join(' ')}: ${run.stderr}`)
  return (performance.now() - started) / 1000
}

export async function benchBackup(options: BackupBenchOptions = {}): Promise<BackupBenchResult> {
  const sizeMb = options.sizeMb ?? 1024
  const scratch = mkdtempSync(join(tmpdir(), 'ecobase-bench-backup-'))
  const dataDir = join(scratch, 'data')
  try {
    const server = await startServer({ dataDir, env: { JOBS: 'on' }, label: 'backup' })
    let serviceBackupSec = 0
    let p95BeforeMs = 0
    let p95DuringMs = 0
    try {
      const register = await fetch(`${server.url}/auth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@example.test', password: 'bench-password', name: 'Bench' }) })
      const { token } = (await register.json()) as { token: string }
      const objects = join(dataDir, 'objects', 'bench')
      mkdirSync(objects, { recursive: true })
      const chunk = Buffer.alloc(FILE_MB * 1024 * 1024)
      for (let i = 0; i < Math.ceil(sizeMb / FILE_MB); i++) writeFileSync(join(objects, `file-${i}.bin`), randomFillSync(chunk))

      p95BeforeMs = await meLatency(server.url, token, () => false, 5000)
      const started = performance.now()
      const backup = (await (await fetch(`${server.url}/system/backups`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })).json()) as { id: string }
      let running = true
      const watch = (async () => {
        while (running) {
          const list = (await (await fetch(`${server.url}/system/backups`, { headers: { authorization: `Bearer ${token}` } })).json()) as { items: { id: string; status: string }[] }
          const mine = list.items.find((b) => b.id === backup.id)
          if (mine && mine.status !== 'running') {
            if (mine.status !== 'complete') throw new Error(`the service's backup ${mine.status}`)
            running = false
            serviceBackupSec = (performance.now() - started) / 1000
          } else await Bun.sleep(250)
        }
      })()
      p95DuringMs = await meLatency(server.url, token, () => running, 0)
      await watch
    } finally {
      await server.stop()
    }
    rmSync(join(dataDir, 'backups'), { recursive: true, force: true })

    const archive = join(scratch, 'backup.tar.gz')
    const backupSec = ecobase(dataDir, ['backup', '--out', archive])
    const restoreSec = ecobase(dataDir, ['restore', archive, '--data-dir', join(scratch, 'restored')])
    const inputMb = (await verifyBackup(archive, [])).parts.reduce((n, part) => n + part.size, 0) / 1048576
    const backupMbPerSec = inputMb / backupSec
    const restoreMbPerSec = inputMb / restoreSec
    const archiveMb = statSync(archive).size / 1048576
    // Targets the issue sets no number for: the service keeps answering (p95 at most 3× during a backup).
    const pass = p95DuringMs <= 3 * Math.max(p95BeforeMs, 1)
    return { pass, run: runInfo(), sizeMb, archiveMb, p95BeforeMs, p95DuringMs, serviceBackupSec, backupMbPerSec, restoreMbPerSec }
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

export function backupTable(r: BackupBenchResult): string {
  return markdownTable(
    `| ${fmt(r.sizeMb)} MB of local files | archive | service backup (running) | GET /auth/me p95 before → during | during ÷ before | \`ecobase backup\` (stopped) | \`ecobase restore\` |`,
    '|---|---:|---:|---:|---:|---:|---:|',
    [`| embedded PGlite | ${fmt(r.archiveMb)} MB | ${fmt(r.serviceBackupSec, 1)} s | ${fmt(r.p95BeforeMs, 1)} → ${fmt(r.p95DuringMs, 1)} ms | **${fmt(r.p95DuringMs / Math.max(r.p95BeforeMs, 0.001), 1)}×** | **${fmt(r.backupMbPerSec)} MB/s** | **${fmt(r.restoreMbPerSec)} MB/s** |`],
  )
}

export const command: BenchCommand<BackupBenchResult> = {
  name: 'backup',
  run: (argv) => benchBackup(benchArgs<BackupBenchOptions & { backends?: never }>(argv, { size: 'sizeMb' }).opts),
  table: backupTable,
}

if (import.meta.main) await benchMain(command)
