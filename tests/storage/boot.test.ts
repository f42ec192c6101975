import { afterAll, describe, expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ConfigError, loadConfig } from '../../src/config'
import { sha256 } from '../support/storage'

const root = join(import.meta.dir, '..', '..')
const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'ecobase-storage-boot-'))
  dirs.push(dir)
  return dir
}

function start(env: Record<string, string>) {
  return Bun.spawn([process.execPath, 'src/index.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH!,
      HOME: process.env.HOME ?? '/tmp',
      LOG_LEVEL: 'warn',
      JOBS: 'off',
      DB_DEBUG: '1',
      HOST: '127.0.0.1',
      DATA_DIR: tempDir(),
      ...env,
    },
    stdout: 'pipe',
    stderr: 'pipe',
  })
}

describe('storage configuration', () => {
  test('defaults: the local store, 15-minute URLs, 5 GiB quota and uploads, a day for pending and purging', () => {
    expect(loadConfig({}).storage).toEqual({
      driver: 'local',
      urlTtl: 900,
      defaultQuotaBytes: 5368709120,
      maxUploadBytes: 5368709120,
      pendingTtl: 86400,
      purgeAfter: 86400,
      s3: null,
    })
  })

  test('the s3 driver takes its settings from S3_*', () => {
    const config = loadConfig({
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: 'http://minio:9000/',
      S3_BUCKET: 'files',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'on',
    })
    expect(config.storage.s3).toEqual({
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
      bucket: 'files',
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
      forcePathStyle: true,
    })
    expect(loadConfig({ STORAGE_DRIVER: 's3', S3_BUCKET: 'files' }).storage.s3!.credentials).toBeNull()
  })

  test.each([
    [{ STORAGE_DRIVER: 's3' }, 'S3_BUCKET'],
    [{ STORAGE_DRIVER: 's3', S3_BUCKET: 'files', S3_ACCESS_KEY_ID: 'id' }, 'S3_SECRET_ACCESS_KEY'],
    [{ STORAGE_DRIVER: 's3', S3_BUCKET: 'files', S3_SECRET_ACCESS_KEY: 'secret' }, 'S3_ACCESS_KEY_ID'],
    [{ STORAGE_DRIVER: 'gcs' }, 'STORAGE_DRIVER'],
    [{ S3_ENDPOINT: 'minio:9000' }, 'S3_ENDPOINT'],
    [{ STORAGE_URL_TTL_SECONDS: '604801' }, 'STORAGE_URL_TTL_SECONDS'],
    [{ STORAGE_MAX_UPLOAD_BYTES: '0' }, 'STORAGE_MAX_UPLOAD_BYTES'],
    [{ STORAGE_DEFAULT_QUOTA_BYTES: '-1' }, 'STORAGE_DEFAULT_QUOTA_BYTES'],
  ])('%j is refused with a message naming %s', (env, name) => {
    let error: unknown
    try {
      loadConfig(env)
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toContain(name)
  })

  test('boot with STORAGE_DRIVER=s3 and no bucket stops with one line naming S3_BUCKET', async () => {
    const proc = start({ STORAGE_DRIVER: 's3' })
    expect(await proc.exited).not.toBe(0)
    const lines = (await new Response(proc.stderr).text()).trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain('S3_BUCKET')
  }, 30_000)

  test('a running server takes a local upload far above MAX_BODY_BYTES and still refuses large JSON', async () => {
    const probe = Bun.serve({ port: 0, fetch: () => new Response() })
    const port = probe.port!
    probe.stop(true)
    const base = `http://127.0.0.1:${port}`
    const proc = start({ PORT: String(port), PUBLIC_URL: base, MAX_BODY_BYTES: '1024' })
    try {
      const deadline = Date.now() + 30_000
      for (;;) {
        if (proc.exitCode !== null) throw new Error(`server exited: ${await new Response(proc.stderr).text()}`)
        if (
          await fetch(`${base}/health`)
            .then((r) => r.ok)
            .catch(() => false)
        )
          break
        if (Date.now() > deadline) throw new Error('server did not become healthy')
        await Bun.sleep(50)
      }
      const json = (method: string, path: string, token?: string, body?: unknown, headers: Record<string, string> = {}) =>
        fetch(base + path, {
          method,
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }))

      const owner = await json('POST', '/auth/register', undefined, { email: 'boot@example.test', password: 'pass-word-long', name: 'Boot' })
      const org = await json('POST', '/registry/organizations', owner.body.token, { slug: 'bootorg', name: 'Boot Org' })
      const eco = { 'x-ecosystem-id': org.body.ecosystem.id }
      const bytes = randomBytes(2 * 1024 * 1024)
      const p = await json(
        'POST',
        '/storage/uploads',
        owner.body.token,
        { filename: 'big.bin', contentType: 'application/octet-stream', sizeBytes: bytes.byteLength, contentHash: sha256(bytes) },
        eco,
      )
      expect(p.status).toBe(201)
      expect(p.body.uploadUrl).toStartWith(`${base}/storage/objects/`)
      const put = await fetch(p.body.uploadUrl, { method: 'PUT', headers: p.body.uploadHeaders, body: bytes })
      expect(put.status).toBe(200)
      expect((await json('POST', `/storage/attachments/${p.body.attachment.id}/complete`, owner.body.token, undefined, eco)).status).toBe(200)
      const d = await json('GET', `/storage/attachments/${p.body.attachment.id}/download`, owner.body.token, undefined, eco)
      const got = Buffer.from(await (await fetch(d.body.url)).arrayBuffer())
      expect(got.equals(bytes)).toBe(true)

      const big = await json('PATCH', `/storage/attachments/${p.body.attachment.id}`, owner.body.token, { metadata: { pad: 'x'.repeat(4000) } }, eco)
      expect(big.status).toBe(413)
    } finally {
      proc.kill()
      await proc.exited
    }
  }, 60_000)
})
