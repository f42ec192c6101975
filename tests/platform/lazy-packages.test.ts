import { afterAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { LOADED_AT_FIRST_USE } from '../support/lazy-packages'
import { cleanUp, tempDir } from '../support/server-process'

afterAll(cleanUp)

/** The packages, and their files, a server built with `env` (embedded, in a fresh DATA_DIR) has loaded before it listens. */
async function loadedAtStart(env: Record<string, string>): Promise<{ packages: string[]; files: string[] }> {
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, '..', 'support', 'loaded-packages.ts')], {
    env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'warn', JOBS: 'off', DATA_DIR: tempDir(), ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  if (code !== 0) throw new Error(`loaded-packages exited with ${code}: ${err}`)
  return JSON.parse(out.trim().split('\n').at(-1)!)
}

describe('packages a start loads', () => {
  test('with a model service and an embedding service configured, none of the SDKs used later is loaded', async () => {
    const { packages: loaded } = await loadedAtStart({ OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', EMBEDDING_BASE_URL: 'http://127.0.0.1:9/v1' })
    expect(loaded).toContain('elysia')
    expect(loaded.filter((name) => LOADED_AT_FIRST_USE.includes(name))).toEqual([])
  }, 60_000)

  test('with tracing configured, the OpenTelemetry SDK is loaded when the app is built', async () => {
    const { packages: loaded } = await loadedAtStart({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' })
    expect(loaded).toContain('@opentelemetry/sdk-trace')
    expect(loaded).toContain('@opentelemetry/exporter-trace-otlp-http')
    expect(loaded).not.toContain('openai')
  }, 60_000)

  test("prom-client's Pushgateway (node:http, node:https) and cluster aggregator are not loaded: the metrics take its parts from their files", async () => {
    const { packages, files } = await loadedAtStart({})
    expect(packages).toContain('prom-client')
    expect(files).toContain('prom-client/lib/registry.js')
    expect(files).not.toContainAnyValues(['prom-client/index.js', 'prom-client/lib/pushgateway.js', 'prom-client/lib/cluster.js'])
  }, 60_000)
})
