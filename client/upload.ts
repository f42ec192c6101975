import { apiError, codeIn, EcobaseError, responseError, thrown } from './errors'
import type { FetchLike } from './fetcher'
import type { Api, StorageAttachment } from './schema'
import { Sha256 } from './sha256'

export type Attachment = StorageAttachment

/** Where an upload is: `hash` while the file is read to hash it, `upload` while the bytes go to the store. */
export interface UploadProgress {
  phase: 'hash' | 'upload'
  /** Bytes done in this phase. */
  loaded: number
  total: number
}

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
  /** Called as the file is hashed and as its bytes are sent (per chunk where XMLHttpRequest exists, i.e. in browsers). */
  onProgress?: (progress: UploadProgress) => void
  /** Aborts the upload; it then resolves with error code `aborted`, and the attachment stays `pending` (never counted). */
  signal?: AbortSignal
}

export type UploadResult = { data: { attachment: Attachment; deduplicated: boolean }; error: null } | { data: null; error: EcobaseError }

/**
 * Uploads a file the way the API wants it: hash (SHA-256) → presign → PUT the bytes straight to
 * the store → complete. The file is read as a stream, chunk by chunk, and sent as a Blob, so it is
 * never held in memory whole. When the caller already has a ready attachment with these bytes,
 * the server says so and nothing is uploaded (`deduplicated: true`). Errors come back as an
 * EcobaseError: e.g. 413 `quota_exceeded`, the store's refusal of the PUT, or `aborted`.
 */
export async function upload(ctx: { api: Api; storeFetch: FetchLike }, file: Blob & { name?: string }, options: UploadOptions = {}): Promise<UploadResult> {
  const { filename, contentType, signal, onProgress, ...fields } = options
  const fail = (error: EcobaseError): UploadResult => ({ data: null, error })
  try {
    const contentHash = await hash(file, signal, onProgress)
    const presigned = await ctx.api.storage.uploads.post(
      {
        filename: filename ?? (file.name || 'file'),
        contentType: contentType ?? (file.type || 'application/octet-stream'),
        sizeBytes: file.size,
        contentHash,
        ...fields,
      },
      { fetch: { signal } },
    )
    if (presigned.error) return fail(apiError(presigned)!)
    const data = presigned.data
    if ('deduplicated' in data && data.deduplicated) return { data: { attachment: data.attachment, deduplicated: true }, error: null }
    if (!('uploadUrl' in data)) return fail(new EcobaseError(presigned.status, 'unexpected_response', 'No uploadUrl in the answer'))

    // Straight to the store: no bearer token (S3 would refuse a second credential beside the signature).
    const request = { url: data.uploadUrl, method: data.uploadMethod, headers: data.uploadHeaders }
    const stored =
      typeof XMLHttpRequest === 'function'
        ? await sendWithXhr(request, file, signal, onProgress)
        : await sendWithFetch(ctx.storeFetch, request, file, signal, onProgress)
    if (stored) return fail(stored)

    const done = await ctx.api.storage.attachments({ id: data.attachment.id }).complete.post(undefined, { fetch: { signal } })
    if (done.error) return fail(apiError(done)!)
    return { data: { attachment: done.data.attachment, deduplicated: false }, error: null }
  } catch (err) {
    return fail(signal?.aborted ? new EcobaseError(0, 'aborted', 'The upload was aborted') : thrown(err))
  }
}

async function hash(file: Blob, signal: AbortSignal | undefined, onProgress: UploadOptions['onProgress']): Promise<string> {
  const hasher = new Sha256()
  const reader = file.stream().getReader()
  let loaded = 0
  onProgress?.({ phase: 'hash', loaded, total: file.size })
  try {
    for (;;) {
      signal?.throwIfAborted()
      const { done, value } = await reader.read()
      if (done) break
      hasher.update(value)
      loaded += value.byteLength
      onProgress?.({ phase: 'hash', loaded, total: file.size })
    }
  } catch (err) {
    // Stop reading the file (an aborted upload should not keep a file handle busy).
    await reader.cancel().catch(() => {})
    throw err
  }
  return hasher.hex()
}

type StoreRequest = { url: string; method: string; headers: Record<string, string> }

/** A fetch with the Blob as body: streamed by the runtime, with a Content-Length as S3 wants. Progress at the start and the end. */
async function sendWithFetch(
  fetch: FetchLike,
  req: StoreRequest,
  file: Blob,
  signal: AbortSignal | undefined,
  onProgress: UploadOptions['onProgress'],
): Promise<EcobaseError | null> {
  onProgress?.({ phase: 'upload', loaded: 0, total: file.size })
  const res = await fetch(req.url, { method: req.method, headers: req.headers, body: file, signal })
  if (!res.ok) {
    const error = await responseError(res, 'upload_failed', `The store refused the upload (HTTP ${res.status})`)
    await res.body?.cancel().catch(() => {})
    return error
  }
  await res.body?.cancel().catch(() => {})
  onProgress?.({ phase: 'upload', loaded: file.size, total: file.size })
  return null
}

/** In a browser, XMLHttpRequest is what reports upload progress as the bytes leave. */
function sendWithXhr(req: StoreRequest, file: Blob, signal: AbortSignal | undefined, onProgress: UploadOptions['onProgress']): Promise<EcobaseError | null> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open(req.method, req.url)
    for (const [name, value] of Object.entries(req.headers)) xhr.setRequestHeader(name, value)
    xhr.upload.onprogress = (e) => onProgress?.({ phase: 'upload', loaded: e.loaded, total: file.size })
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve(null)
      resolve(new EcobaseError(xhr.status, codeIn(xhr.responseText) ?? 'upload_failed', `The store refused the upload (HTTP ${xhr.status})`))
    }
    xhr.onerror = () => reject(new TypeError('The upload could not reach the store'))
    xhr.onabort = () => reject(new DOMException('The upload was aborted', 'AbortError'))
    signal?.addEventListener('abort', () => xhr.abort(), { once: true })
    onProgress?.({ phase: 'upload', loaded: 0, total: file.size })
    xhr.send(file)
  })
}
