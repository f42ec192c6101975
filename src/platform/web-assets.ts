import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

/**
 * A static response body compressed once, for the pages browsers load (the API reference's
 * Swagger UI bundle is 1.7 MB, its document 1.2 MB: 0.4 MB and 0.1 MB compressed). Brotli at
 * quality 6: within a few percent of 9 at a third of its time (11 took 4 s on the bundle).
 */
export interface WebAsset {
  type: string
  etag: string
  identity: Uint8Array<ArrayBuffer>
  br: Uint8Array<ArrayBuffer>
  gzip: Uint8Array<ArrayBuffer>
}

export function webAsset(body: Uint8Array<ArrayBuffer> | string, type: string): WebAsset {
  const identity = typeof body === 'string' ? new TextEncoder().encode(body) : body
  const hash = new Bun.CryptoHasher('sha256').update(identity).digest('base64url').slice(0, 27)
  return {
    type,
    // Weak: the encodings below are the same representation, so one validator serves them all.
    etag: `W/"${hash}"`,
    identity,
    br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 6, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
    gzip: gzipSync(identity, { level: 6 }),
  }
}

/** `make` run on first use and kept: the work is done once per process, not at boot. */
export function lazyWebAsset(make: () => WebAsset | Promise<WebAsset>): () => Promise<WebAsset> {
  let made: Promise<WebAsset> | null = null
  return () => {
    made ??= Promise.resolve(make()).catch((err) => {
      made = null
      throw err
    })
    return made
  }
}

/** The coding a client accepts that we prefer (br, then gzip), from its Accept-Encoding. */
export function negotiateEncoding(acceptEncoding: string | null): 'br' | 'gzip' | null {
  const accepted = new Set<string>()
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [coding, ...params] = part.split(';').map((s) => s.trim())
    const q = params.find((p) => p.startsWith('q='))
    if (coding && !(q && Number(q.slice(2)) === 0)) accepted.add(coding)
  }
  if (accepted.has('br')) return 'br'
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip'
  return null
}

/** The asset as `request` accepts it, with its validator; 304 when the client's copy is current. */
export function serveWebAsset(request: Request, asset: WebAsset, cacheControl: string): Response {
  const headers: Record<string, string> = { 'cache-control': cacheControl, etag: asset.etag, vary: 'Accept-Encoding' }
  if (
    request.headers
      .get('if-none-match')
      ?.split(',')
      .some((tag) => tag.trim().replace(/^W\//, '') === asset.etag.slice(2))
  )
    return new Response(null, { status: 304, headers })
  const coding = negotiateEncoding(request.headers.get('accept-encoding'))
  headers['content-type'] = asset.type
  if (coding) headers['content-encoding'] = coding
  return new Response(coding ? asset[coding] : asset.identity, { headers })
}
