import { createHash, createHmac } from 'node:crypto'

const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest()
const rfc3986 = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)

/**
 * Checks an AWS SigV4 query-signed (presigned) request the way S3 does, written from the AWS
 * documentation independently of the SDK that signed it. s3rver checks only key id and expiry, so
 * the S3 test peer runs this in front of it. Returns null when the signature holds, else why not.
 */
export function presignedSignatureProblem(request: { method: string; url: string; headers: Headers }, secretAccessKey: string): string | null {
  const url = new URL(request.url)
  const q = url.searchParams
  if (q.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') return 'unsupported algorithm'
  const credential = q.get('X-Amz-Credential')?.split('/') ?? []
  const [, date, region, service, terminator] = credential
  if (credential.length !== 5 || terminator !== 'aws4_request') return 'malformed credential'
  const amzDate = q.get('X-Amz-Date') ?? ''
  const signed = (q.get('X-Amz-SignedHeaders') ?? '').split(';').filter(Boolean)
  if (!signed.includes('host')) return 'host is not signed'
  const canonicalQuery = [...q.entries()]
    .filter(([k]) => k !== 'X-Amz-Signature')
    .map(([k, v]) => [rfc3986(k), rfc3986(v)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&')
  const headerValue = (name: string) => (name === 'host' ? (request.headers.get('host') ?? url.host) : (request.headers.get(name) ?? ''))
  const canonicalHeaders = signed.map((h) => `${h}:${headerValue(h).trim().replace(/\s+/g, ' ')}\n`).join('')
  const canonicalRequest = [
    request.method,
    url.pathname,
    canonicalQuery,
    canonicalHeaders,
    signed.join(';'),
    q.get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD',
  ].join('\n')
  const scope = `${date}/${region}/${service}/aws4_request`
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, createHash('sha256').update(canonicalRequest).digest('hex')].join('\n')
  const key = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, date!), region!), service!), 'aws4_request')
  const expected = createHmac('sha256', key).update(stringToSign).digest('hex')
  return expected === q.get('X-Amz-Signature') ? null : `signature mismatch (signed headers: ${signed.join(';')})`
}
