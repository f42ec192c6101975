/** A presigned upload: PUT the bytes to `url` with exactly `headers` (Content-Length comes from the body). */
export interface PresignedPut {
  url: string
  headers: Record<string, string>
  expiresAt: Date
}

export interface PresignedGet {
  url: string
  expiresAt: Date
}

/**
 * Where attachment bytes live. Bytes never pass through the API: callers PUT and GET them at
 * presigned URLs the store issues. Every adapter passes tests/providers/storage.contract.test.ts.
 */
export interface ObjectStore {
  /** Recorded on each attachment as `storageKind`. */
  readonly kind: 'local' | 's3'
  /**
   * A URL that accepts exactly these bytes (type, length and SHA-256 bound by the signature) until it expires.
   * `origin`: where the caller reached the service (a same-origin page); a store the service serves itself
   * issues its URL there instead of at PUBLIC_URL (the signature does not cover the host). Bucket stores ignore it.
   */
  presignPut(input: {
    key: string
    contentType: string
    sizeBytes: number
    sha256Hex: string
    expiresIn: number
    origin?: string | null
  }): Promise<PresignedPut>
  /** A URL that serves the object as a download named `filename` (`origin` as for presignPut). */
  presignGet(input: { key: string; filename: string; contentType: string; expiresIn: number; origin?: string | null }): Promise<PresignedGet>
  /** Size of the stored object, or null when nothing is stored under `key`. */
  head(key: string): Promise<{ sizeBytes: number } | null>
  /** Removes the object; removing a missing object is not an error. */
  delete(key: string): Promise<void>
  /** Stores a file the service made (a backup archive) under `key`, streaming it; bucket stores only. */
  putFile?(key: string, path: string, sizeBytes: number, contentType: string): Promise<void>
  /** Stores that the service serves itself (local) answer their signed URLs here. */
  serve?(request: Request): Promise<Response>
  /**
   * Where a bucket store's presigned URLs point (scheme, host and port), for pages of the service
   * that load them (the console's previews and uploads: its content security policy names it).
   * Absent for a store the service serves itself.
   */
  origin?(): Promise<string>
}

/** Path under which the local store's signed URLs are served (see modules/storage/routes). */
export const LOCAL_OBJECTS_PATH = '/storage/objects'

/**
 * `Content-Disposition: attachment` naming the file (RFC 6266): an ASCII fallback for old
 * clients and the exact name as RFC 5987 `filename*`. `attachment` also keeps browsers from
 * rendering uploaded HTML on the serving origin.
 */
export function contentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_') || 'download'
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`
}
