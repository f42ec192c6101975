import { apiError, errorCode, type ApiError } from './errors'
import type { FetchLike } from './fetcher'
import type { Api } from './api'

type Presigned = NonNullable<Awaited<ReturnType<Api['storage']['uploads']['post']>>['data']>
export type Attachment = Presigned['attachment']

export interface UploadOptions {
  /** Defaults to the file's `name` (a `File`), else `file`. */
  filename?: string
  /** Defaults to the file's `type`, else `application/octet-stream`. */
  contentType?: string
  /** What the file is attached to (default `standalone`), e.g. `chat_message` with its id. */
  ownerType?: string
  ownerId?: string | null
  metadata?: Record<string, unknown> | null
  width?: number | null
  height?: number | null
  durationMs?: number | null
  /** Aborts the byte upload. */
  signal?: AbortSignal
}

export type UploadResult =
  | { data: { attachment: Attachment; deduplicated: boolean }; error: null }
  | { data: null; error: ApiError }

/**
 * Uploads a file the way the API wants it: hash (SHA-256) → presign → PUT the bytes straight to
 * the store → complete. When the caller already has a ready attachment with these bytes, the
 * server says so and nothing is uploaded (`deduplicated: true`). Errors come back as
 * `{ status, code, message }`: e.g. 413 `quota_exceeded`, or the store's refusal of the PUT.
 *
 * The file is read into memory once (to hash it, then to send it).
 */
export async function upload(
  ctx: { api: Api; storeFetch: FetchLike },
  file: Blob & { name?: string },
  options: UploadOptions = {},
): Promise<UploadResult> {
  const { filename, contentType, signal, ...fields } = options
  const bytes = await file.arrayBuffer()
  const contentHash = toHex(await crypto.subtle.digest('SHA-256', bytes))
  const presigned = await ctx.api.storage.uploads.post({
    filename: filename ?? (file.name || 'file'),
    contentType: contentType ?? (file.type || 'application/octet-stream'),
    sizeBytes: bytes.byteLength,
    contentHash,
    ...fields,
  })
  if (presigned.error) return { data: null, error: apiError(presigned)! }
  const data = presigned.data
  if ('deduplicated' in data && data.deduplicated) return { data: { attachment: data.attachment, deduplicated: true }, error: null }
  if (!('uploadUrl' in data)) return { data: null, error: { status: presigned.status, code: 'unexpected_response', message: 'No uploadUrl in the answer' } }

  let res: Response
  try {
    // Straight to the store: no bearer token (S3 would refuse a second credential beside the signature).
    res = await ctx.storeFetch(data.uploadUrl, { method: data.uploadMethod, headers: data.uploadHeaders, body: bytes, signal })
  } catch (err) {
    return { data: null, error: { status: 0, code: 'network_error', message: (err as Error).message } }
  }
  if (!res.ok) {
    const code = (await errorCode(res)) ?? 'upload_failed'
    const message = `The store refused the upload (HTTP ${res.status})`
    await res.body?.cancel().catch(() => {})
    return { data: null, error: { status: res.status, code, message } }
  }
  await res.body?.cancel().catch(() => {})

  const done = await ctx.api.storage.attachments({ id: data.attachment.id }).complete.post()
  if (done.error) return { data: null, error: apiError(done)! }
  return { data: { attachment: done.data.attachment, deduplicated: false }, error: null }
}

function toHex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('')
}
