import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import S3rver from 's3rver'
import { presignedSignatureProblem } from './sigv4'

export const S3_KEY = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }

export interface S3Peer {
  /** The endpoint clients and the app use: a SigV4-checking front of s3rver, on loopback. */
  endpoint: string
  /** The environment that points an app at this peer. */
  env(bucket: string): Record<string, string>
  /** Creates a bucket; each test app uses its own. */
  createBucket(): Promise<string>
  /** Presigned requests the front refused for their signature, with the reason. */
  refused: string[]
  close(): Promise<void>
}

let buckets = 0

/**
 * A real S3-compatible server (s3rver) on loopback with a front that verifies the SigV4 signature
 * of presigned requests — s3rver itself checks only key id and expiry — and passes everything on.
 */
export async function startS3(): Promise<S3Peer> {
  const directory = mkdtempSync(join(tmpdir(), 'ecobase-s3-'))
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory })
  const { port } = (await server.run()) as { port: number }
  const upstream = `http://127.0.0.1:${port}`
  const refused: string[] = []

  const front = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const url = new URL(req.url)
      if (url.searchParams.has('X-Amz-Signature')) {
        const problem = presignedSignatureProblem(req, S3_KEY.secretAccessKey)
        if (problem) {
          refused.push(`${req.method} ${url.pathname}: ${problem}`)
          const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>SignatureDoesNotMatch</Code><Message>${problem}</Message></Error>`
          return new Response(xml, { status: 403, headers: { 'content-type': 'application/xml' } })
        }
      }
      const headers = new Headers(req.headers)
      headers.delete('host')
      const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await req.arrayBuffer()
      const res = await fetch(upstream + url.pathname + url.search, { method: req.method, headers, body, redirect: 'manual' })
      return new Response(req.method === 'HEAD' ? null : res.body, { status: res.status, headers: res.headers })
    },
  })
  const endpoint = `http://127.0.0.1:${front.port}`
  const admin = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: S3_KEY })

  return {
    endpoint,
    refused,
    env: (bucket) => ({
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: S3_KEY.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3_KEY.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'on',
    }),
    async createBucket() {
      const bucket = `ecobase-test-${process.pid}-${++buckets}`
      await admin.send(new CreateBucketCommand({ Bucket: bucket }))
      return bucket
    },
    async close() {
      admin.destroy()
      front.stop(true)
      await server.close()
      rmSync(directory, { recursive: true, force: true })
    },
  }
}
