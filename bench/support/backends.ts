/** Running a bench on each database, and what a run records about itself. */
import { readFileSync } from 'node:fs'
import { percentile, timeRequests } from './utils'
import { type Server, type ServerOptions, startServer } from './server'
import { PG_ADMIN_URL, createTempDatabase, postgresAvailable } from './postgres'
import { gitRevision } from './cpu'

export type Backend = 'pglite' | 'postgres'

/** One backend's part of a bench result: measured, or skipped (no PostgreSQL), or failed. */
export interface BackendOutcome {
  backend: Backend
  skipped?: string
  error?: string
}

/** Latency of one kind of request: percentiles in ms and what it found. */
export interface LatencyRow {
  query: string
  p50Ms: number
  p95Ms: number
  total: number
}

/** Times `request` (see `timeRequests`) and returns its percentiles and the `total` it last answered. */
export async function latencyRow(query: string, request: () => Promise<{ total: number }>, count: number, budgetSec = 30): Promise<LatencyRow> {
  let total = 0
  const times = await timeRequests(
    async () => {
      total = (await request()).total
    },
    count,
    budgetSec,
  )
  return { query, p50Ms: percentile(times, 0.5), p95Ms: percentile(times, 0.95), total }
}
export const BACKENDS: Backend[] = ['pglite', 'postgres']

/**
 * Starts a server on `backend` (a throwaway database for PostgreSQL), runs `fn`, and always stops
 * the server and drops the database afterwards.
 */
export async function withServer<T>(backend: Backend, fn: (server: Server) => Promise<T>, options: ServerOptions = {}): Promise<T> {
  const db = backend === 'postgres' ? await createTempDatabase() : undefined
  try {
    const server = await startServer({ ...options, databaseUrl: db?.url, label: backend })
    try {
      return await fn(server)
    } finally {
      await server.stop()
    }
  } finally {
    await db?.drop()
  }
}

/**
 * Runs `measure` on each backend in turn. PostgreSQL is skipped (and said so) when it does not
 * answer; with `catchErrors`, a backend that fails is logged and recorded as `{ backend, error }`.
 */
export async function eachBackend<R extends { backend: Backend; skipped?: string; error?: string }>(
  backends: Backend[],
  log: (line: string) => void,
  measure: (backend: Backend) => Promise<R>,
  options: { catchErrors?: boolean } = {},
): Promise<R[]> {
  const results: R[] = []
  for (const backend of backends) {
    if (backend === 'postgres' && !(await postgresAvailable())) {
      log(`  ${backend}: skipped (no PostgreSQL at ${PG_ADMIN_URL.replace(/\/\/[^@]*@/, '//')})`)
      results.push({ backend, skipped: 'PostgreSQL not reachable' } as R)
      continue
    }
    try {
      results.push(await measure(backend))
    } catch (err) {
      if (!options.catchErrors) throw err
      log(`  ${backend}: FAILED: ${(err as Error).message}`)
      results.push({ backend, error: (err as Error).message } as R)
    }
  }
  return results
}

/** When, from which commit and on what machine a bench ran: the head of every results file. */
export interface RunInfo {
  at: string
  revision: ReturnType<typeof gitRevision>
  machine: ReturnType<typeof machineInfo>
}

export const runInfo = (root?: string): RunInfo => ({ at: new Date().toISOString(), revision: gitRevision(root), machine: machineInfo() })

/** The CPU and runtime this was measured on, for the results file. */
export function machineInfo() {
  const cpus = (() => {
    try {
      const text = readFileSync('/proc/cpuinfo', 'utf8')
      const model = /model name\s*:\s*(.*)/.exec(text)?.[1]
      return { model, count: (text.match(/^processor\s*:/gm) ?? []).length }
    } catch {
      return { model: undefined, count: navigator.hardwareConcurrency }
    }
  })()
  return { bun: Bun.version, cpu: cpus.model, cores: cpus.count, platform: `${process.platform}-${process.arch}` }
}
