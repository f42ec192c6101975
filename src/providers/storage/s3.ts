import type { S3Client } from '@aws-sdk/client-s3'
import type { StorageConfig } from '../../config'
import { contentDisposition, type ObjectStore, type PresignedGet, type PresignedPut } from './types'

type S3Settings = NonNullable<StorageConfig['s3']>

/**
 * The AWS SDK, loaded on first use: it is tens of megabytes of memory that an embedded server on
 * the local store never needs (bench/README.md, P7: idle RSS).
 */
const loadSdk = async () => {
  const [s3, presigner] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/s3-request-presigner')])
  return { ...s3, getSignedUrl: presigner.getSignedUrl }
}

/** Any S3-compatible bucket (AWS, MinIO, R2, ...), addressed through presigned SigV4 URLs. */
export class S3ObjectStore implements ObjectStore {
  readonly kind = 's3' as const
  private sdk: Promise<{ sdk: Awaited<ReturnType<typeof loadSdk>>; client: S3Client }> | undefined
  private probed: Promise<string> | undefined
  private readonly bucket: string

  constructor(
    private readonly settings: S3Settings,
    private readonly now: () => Date,
  ) {
    this.bucket = settings.bucket
  }

  private connect() {
    this.sdk ??= loadSdk().then((sdk) => ({ sdk, client: this.createClient(sdk, this.settings.credentials) }))
    return this.sdk
  }

  /**
   * The origin the SDK presigns for (virtual-hosted or path style, the region's endpoint or
   * S3_ENDPOINT), as its own URL building decides: one URL signed with a throwaway key, offline,
   * so no credential is looked up or sent for it.
   */
  async origin(): Promise<string> {
    this.probed ??= loadSdk().then(async (sdk) => {
      const client = this.createClient(sdk, { accessKeyId: 'origin-probe', secretAccessKey: 'origin-probe' })
      try {
        return new URL(await sdk.getSignedUrl(client, new sdk.GetObjectCommand({ Bucket: this.bucket, Key: 'origin-probe' }), { expiresIn: 60 })).origin
      } finally {
        client.destroy()
      }
    })
    return this.probed
  }

  private createClient(sdk: Awaited<ReturnType<typeof loadSdk>>, credentials: S3Settings['credentials']): S3Client {
    const settings = this.settings
    return new sdk.S3Client({
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      ...(credentials ? { credentials } : {}),
      // Otherwise presigned PUT URLs carry the SDK's checksum of an empty body, which no real upload matches.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
    })
  }

  async presignPut(input: {
    key: string
    contentType: string
    sizeBytes: number
    sha256Hex: string
    expiresIn: number
    origin?: string | null
  }): Promise<PresignedPut> {
    const { sdk, client } = await this.connect()
    const checksum = Buffer.from(input.sha256Hex, 'hex').toString('base64')
    const command = new sdk.PutObjectCommand({
      Bucket: this.bucket,
      Key: input.key,
      ContentType: input.contentType,
      ContentLength: input.sizeBytes,
      ChecksumSHA256: checksum,
    })
    const signingDate = this.now()
    // Type, length and checksum are signed headers (not hoisted into the query): a PUT with other
    // values fails the signature, and S3 refuses a body whose SHA-256 differs from the checksum.
    const url = await sdk.getSignedUrl(client, command, {
      expiresIn: input.expiresIn,
      signingDate,
      signableHeaders: new Set(['content-type', 'content-length']),
      unhoistableHeaders: new Set(['x-amz-checksum-sha256']),
    })
    return {
      url,
      headers: { 'content-type': input.contentType, 'x-amz-checksum-sha256': checksum },
      expiresAt: new Date(signingDate.getTime() + input.expiresIn * 1000),
    }
  }

  async presignGet(input: { key: string; filename: string; contentType: string; expiresIn: number; origin?: string | null }): Promise<PresignedGet> {
    const { sdk, client } = await this.connect()
    const command = new sdk.GetObjectCommand({
      Bucket: this.bucket,
      Key: input.key,
      ResponseContentDisposition: contentDisposition(input.filename),
      ResponseContentType: input.contentType,
    })
    const signingDate = this.now()
    const url = await sdk.getSignedUrl(client, command, { expiresIn: input.expiresIn, signingDate })
    return { url, expiresAt: new Date(signingDate.getTime() + input.expiresIn * 1000) }
  }

  async head(key: string): Promise<{ sizeBytes: number } | null> {
    const { sdk, client } = await this.connect()
    try {
      const res = await client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key: key }))
      return { sizeBytes: Number(res.ContentLength ?? 0) }
    } catch (err) {
      const e = err as { name?: string; $metadata?: { httpStatusCode?: number } }
      if (e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404) return null
      throw err
    }
  }

  async putFile(key: string, path: string, sizeBytes: number, contentType: string): Promise<void> {
    const { sdk, client } = await this.connect()
    const { createReadStream } = await import('node:fs')
    await client.send(
      new sdk.PutObjectCommand({ Bucket: this.bucket, Key: key, Body: createReadStream(path), ContentLength: sizeBytes, ContentType: contentType }),
    )
  }

  async delete(key: string): Promise<void> {
    const { sdk, client } = await this.connect()
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: key }))
  }
}
