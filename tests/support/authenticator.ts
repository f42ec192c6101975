import { createHash } from 'node:crypto'

// A software WebAuthn authenticator (ES256, "none" attestation), built from the WebAuthn spec's
// byte layouts with WebCrypto and a small CBOR encoder: what a browser would hand the server
// after `navigator.credentials.create()` / `.get()`, as JSON.

type Cbor = number | string | Uint8Array | Map<number | string, Cbor> | { [key: string]: Cbor }

function head(major: number, length: number): number[] {
  if (length < 24) return [(major << 5) | length]
  if (length < 256) return [(major << 5) | 24, length]
  if (length < 65536) return [(major << 5) | 25, length >> 8, length & 255]
  return [(major << 5) | 26, (length >>> 24) & 255, (length >> 16) & 255, (length >> 8) & 255, length & 255]
}

function cbor(value: Cbor): Uint8Array {
  const out: number[] = []
  const write = (v: Cbor) => {
    if (typeof v === 'number') out.push(...(v >= 0 ? head(0, v) : head(1, -1 - v)))
    else if (typeof v === 'string') {
      const bytes = new TextEncoder().encode(v)
      out.push(...head(3, bytes.length), ...bytes)
    } else if (v instanceof Uint8Array) out.push(...head(2, v.length), ...v)
    else {
      const entries: [number | string, Cbor][] = v instanceof Map ? [...v.entries()] : Object.entries(v)
      out.push(...head(5, entries.length))
      for (const [k, item] of entries) {
        write(k)
        write(item)
      }
    }
  }
  write(value)
  return new Uint8Array(out)
}

const sha256 = (data: Uint8Array | string) => new Uint8Array(createHash('sha256').update(data).digest())
const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url')
const concat = (...parts: Uint8Array[]) => new Uint8Array(parts.flatMap((p) => [...p]))
const u32 = (n: number) => new Uint8Array([(n >>> 24) & 255, (n >> 16) & 255, (n >> 8) & 255, n & 255])

/** WebCrypto's ECDSA signature (r || s) as the DER sequence WebAuthn carries. */
function der(raw: Uint8Array): Uint8Array {
  const int = (bytes: Uint8Array) => {
    let i = 0
    while (i < bytes.length - 1 && bytes[i] === 0) i++
    const trimmed = bytes.slice(i)
    const body = trimmed[0]! & 0x80 ? concat(new Uint8Array([0]), trimmed) : trimmed
    return concat(new Uint8Array([0x02, body.length]), body)
  }
  const seq = concat(int(raw.slice(0, 32)), int(raw.slice(32)))
  return concat(new Uint8Array([0x30, seq.length]), seq)
}

export async function softwareAuthenticator(options: { origin: string; userVerified?: boolean }) {
  const keys = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])
  const raw = new Uint8Array(await crypto.subtle.exportKey('raw', keys.publicKey))
  const credentialId = crypto.getRandomValues(new Uint8Array(16))
  const cose = cbor(
    new Map<number, Cbor>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, raw.slice(1, 33)],
      [-3, raw.slice(33, 65)],
    ]),
  )
  let counter = 0
  let userHandle = ''
  const flags = (extra: number) => new Uint8Array([0x01 | (options.userVerified === false ? 0 : 0x04) | extra])
  const id = b64url(credentialId)

  return {
    id,
    /** What `navigator.credentials.create(options)` resolves to, as JSON. */
    create(creation: { challenge: string; rp: { id?: string }; user: { id: string } }) {
      userHandle = creation.user.id
      const clientDataJSON = new TextEncoder().encode(
        JSON.stringify({ type: 'webauthn.create', challenge: creation.challenge, origin: options.origin, crossOrigin: false }),
      )
      const authData = concat(
        sha256(creation.rp.id!),
        flags(0x40),
        u32(counter),
        new Uint8Array(16),
        new Uint8Array([0, credentialId.length]),
        credentialId,
        cose,
      )
      const attestationObject = cbor({ fmt: 'none', attStmt: {}, authData })
      return {
        id,
        rawId: id,
        type: 'public-key' as const,
        response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ['internal'] },
        clientExtensionResults: {},
      }
    },
    /** What `navigator.credentials.get(options)` resolves to, as JSON; `counter` overrides the next sign counter. */
    async get(request: { challenge: string; rpId?: string }, override: { counter?: number } = {}) {
      counter = override.counter ?? counter + 1
      const clientDataJSON = new TextEncoder().encode(
        JSON.stringify({ type: 'webauthn.get', challenge: request.challenge, origin: options.origin, crossOrigin: false }),
      )
      const authenticatorData = concat(sha256(request.rpId!), flags(0), u32(counter))
      const signature = new Uint8Array(
        await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, keys.privateKey, concat(authenticatorData, sha256(clientDataJSON))),
      )
      return {
        id,
        rawId: id,
        type: 'public-key' as const,
        response: { clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authenticatorData), signature: b64url(der(signature)), userHandle },
        clientExtensionResults: {},
      }
    },
  }
}
