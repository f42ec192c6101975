import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto'

/** A URL-safe random secret with `bytes` bytes of entropy. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url')
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex')
}

const SEALED_PREFIX = 'v1.'

/** A key for sealing secrets at rest, derived from the server key and a purpose label. */
function sealingKey(serverKey: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', serverKey, 'ecobase-sealed-secret', purpose, 32))
}

/**
 * Encrypts a secret (e.g. a provider API key) for storage with AES-256-GCM under the server key.
 * `purpose` binds the ciphertext to its use: it only opens with the same label.
 */
export function sealSecret(serverKey: string, purpose: string, plaintext: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', sealingKey(serverKey, purpose), iv)
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
  return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')
}

/** Decrypts what sealSecret produced; throws when the key, the label or the bytes differ. */
export function openSecret(serverKey: string, purpose: string, sealed: string): string {
  if (!sealed.startsWith(SEALED_PREFIX)) throw new Error('not a sealed secret')
  const raw = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64url')
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(serverKey, purpose), raw.subarray(0, 12))
  decipher.setAuthTag(raw.subarray(12, 28))
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')
}

/** A MAC of `value` under a key derived for `purpose`: proves a link or token was made by this server. */
export function signValue(serverKey: string, purpose: string, value: string): string {
  return createHmac('sha256', sealingKey(serverKey, `mac:${purpose}`))
    .update(value)
    .digest('base64url')
}

/** Compares two strings in time that does not depend on where they differ. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  if (left.length !== right.length) {
    timingSafeEqual(left, left)
    return false
  }
  return timingSafeEqual(left, right)
}
