import { createCipheriv, createDecipheriv, createHmac, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto'

/**
 * Encrypted archives (BACKUP_ENCRYPTION_KEY): AES-256-GCM over 64 KiB chunks, in the STREAM
 * construction (as age and Tink use it), so an archive of any size is written and read chunk by
 * chunk, and nothing is let out before its chunk's tag checks.
 *
 * Layout: a 64-byte header, then the chunks, each its ciphertext and its 16-byte tag.
 *   header = MAGIC (8) ‖ salt (16) ‖ nonce prefix (7) ‖ reserved (1) ‖ key check (32)
 *   key    = scrypt(BACKUP_ENCRYPTION_KEY, salt, N=2^15, r=8, p=1), 32 bytes: a fresh key per archive
 *   check  = HMAC-SHA256(key, "ecobase backup key check"): tells "another key" from "damaged"
 *   nonce  = nonce prefix ‖ chunk number (4 bytes, big-endian) ‖ 1 for the last chunk, else 0
 *   AAD    = the header
 * Every chunk but the last holds 64 KiB of plain bytes; the last one (maybe empty) is marked in its
 * nonce, so a truncated or reordered archive fails its tags.
 */
export const MAGIC = Buffer.from('ECOBENC1')
const HEADER = 64
const CHUNK = 64 * 1024
const TAG = 16
const SCRYPT = { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }

/** An archive that cannot be decrypted: no key, another key, or damaged bytes. */
export class DecryptError extends Error {}

function derive(secret: string, salt: Buffer): { key: Buffer; check: Buffer } {
  const key = scryptSync(secret, salt, 32, SCRYPT)
  return { key, check: createHmac('sha256', key).update('ecobase backup key check').digest() }
}

function nonce(prefix: Buffer, counter: number, last: boolean): Buffer {
  const n = Buffer.alloc(12)
  prefix.copy(n, 0, 0, 7)
  n.writeUInt32BE(counter, 7)
  n[11] = last ? 1 : 0
  return n
}

function seal(key: Buffer, header: Buffer, prefix: Buffer, counter: number, last: boolean, plain: Buffer): Buffer {
  const cipher = createCipheriv('aes-256-gcm', key, nonce(prefix, counter, last)).setAAD(header)
  return Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()])
}

/** Encrypts a stream of bytes with `secret` (the first key of BACKUP_ENCRYPTION_KEY). */
export async function* encrypt(secret: string, plain: AsyncIterable<Buffer | Uint8Array>): AsyncGenerator<Buffer> {
  const salt = randomBytes(16)
  const prefix = randomBytes(7)
  const { key, check } = derive(secret, salt)
  const header = Buffer.concat([MAGIC, salt, prefix, Buffer.alloc(1), check])
  yield header
  let pending = Buffer.alloc(0)
  let counter = 0
  for await (const chunk of plain) {
    pending = Buffer.concat([pending, chunk])
    // Strictly more than a chunk: the last chunk is only known at the end.
    while (pending.length > CHUNK) {
      yield seal(key, header, prefix, counter++, false, pending.subarray(0, CHUNK))
      pending = pending.subarray(CHUNK)
    }
  }
  yield seal(key, header, prefix, counter, true, pending)
}

/** Whether these bytes (the start of a file) are an encrypted archive. */
export const isEncrypted = (start: Buffer) => start.length >= MAGIC.length && start.subarray(0, MAGIC.length).equals(MAGIC)

/** Decrypts what `encrypt` wrote with any of `secrets` (BACKUP_ENCRYPTION_KEY's keys, newest first). */
export async function* decrypt(secrets: readonly string[], sealed: AsyncIterable<Buffer | Uint8Array>): AsyncGenerator<Buffer> {
  let pending = Buffer.alloc(0)
  const source = sealed[Symbol.asyncIterator]()
  let ended = false
  const fill = async (n: number) => {
    while (!ended && pending.length < n) {
      const next = await source.next()
      if (next.done) ended = true
      else pending = Buffer.concat([pending, next.value])
    }
  }
  await fill(HEADER)
  if (pending.length < HEADER || !isEncrypted(pending)) throw new DecryptError('not an encrypted Ecobase backup')
  const header = Buffer.from(pending.subarray(0, HEADER))
  pending = pending.subarray(HEADER)
  if (secrets.length === 0) throw new DecryptError('the archive is encrypted: set BACKUP_ENCRYPTION_KEY (or BACKUP_ENCRYPTION_KEY_FILE) to its key')
  const salt = header.subarray(8, 24)
  const prefix = header.subarray(24, 31)
  const key = secrets.map((s) => derive(s, salt)).find((d) => timingSafeEqual(d.check, header.subarray(32, 64)))?.key
  if (!key) throw new DecryptError('the archive was encrypted with another key than BACKUP_ENCRYPTION_KEY holds')
  for (let counter = 0; ; counter++) {
    await fill(CHUNK + TAG + 1)
    const last = pending.length <= CHUNK + TAG
    if (last && pending.length < TAG) throw new DecryptError('the archive ends early (truncated)')
    const size = last ? pending.length : CHUNK + TAG
    const box = pending.subarray(0, size)
    pending = pending.subarray(size)
    const decipher = createDecipheriv('aes-256-gcm', key, nonce(prefix, counter, last)).setAAD(header)
    decipher.setAuthTag(box.subarray(box.length - TAG))
    let plain: Buffer
    try {
      plain = Buffer.concat([decipher.update(box.subarray(0, box.length - TAG)), decipher.final()])
    } catch {
      throw new DecryptError(`the archive is damaged or was tampered with (chunk ${counter} fails its check)`)
    }
    if (plain.length) yield plain
    if (last) return
  }
}
