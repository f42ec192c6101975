import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Runs `src/index.ts` as `npm start` does, in real processes, for boot and shutdown tests. */
const root = join(import.meta.dir, '..', '..')
const dirs: string[] = []
const procs: Bun.Subprocess[] = []

export function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'ecobase-boot-'))
  dirs.push(dir)
  return dir
}

/** Kills what is still running and removes the temp dirs; call in afterAll. */
export async function cleanUp() {
  for (const proc of procs) if (proc.exitCode === null) proc.kill('SIGKILL')
  await Promise.all(procs.map((p) => p.exited))
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
}

export function start(env: Record<string, string>) {
  const proc = Bun.spawn([process.execPath, 'src/index.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'warn', JOBS: 'off', DB_DEBUG: '1', HOST: '127.0.0.1', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  procs.push(proc)
  return proc
}

export async function untilHealthy(port: number, proc: Bun.Subprocess, ms = 20_000) {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) {
      const said = proc.stderr instanceof ReadableStream ? (await new Response(proc.stderr).text()).trim().split('\n').slice(-40).join(' | ') : ''
      throw new Error(`server exited with ${proc.exitCode}${said ? `: ${said}` : ''}`)
    }
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health`)
      if (res.ok) return
    } catch {}
    await Bun.sleep(50)
  }
  throw new Error('server did not become healthy')
}

export const freePort = () => {
  const s = Bun.serve({ port: 0, fetch: () => new Response() })
  const port = s.port!
  s.stop(true)
  return port
}

export type Call = (
  method: string,
  path: string,
  options?: { token?: string; ecosystem?: string; body?: unknown; headers?: Record<string, string> },
) => Promise<{ status: number; body: any }>

/** `call(method, path, { token, ecosystem, body })` against a server over HTTP, parsing JSON replies. */
export const caller =
  (base: string): Call =>
  async (method, path, { token, ecosystem, body, headers: extra } = {}) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...extra }
    if (token) headers.authorization = `Bearer ${token}`
    if (ecosystem) headers['x-ecosystem-id'] = ecosystem
    const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    return { status: res.status, body: res.status === 204 ? null : await res.json() }
  }
