import { createReadStream, createWriteStream, type WriteStream } from 'node:fs'
import { once } from 'node:events'
import { createGunzip, createGzip, type Gzip } from 'node:zlib'

/**
 * The little of POSIX ustar a backup needs, streamed through gzip: regular files with names up to
 * 100 bytes (`tar tzf` lists them). Written entry by entry; read back entry by entry.
 */
const BLOCK = 512

function header(name: string, size: number): Buffer {
  if (Buffer.byteLength(name) > 100) throw new Error(`archive entry name too long: ${name}`)
  const block = Buffer.alloc(BLOCK)
  const field = (offset: number, length: number, value: string) => block.write(value, offset, length, 'utf8')
  field(0, 100, name)
  field(100, 8, '0000644\0')
  field(108, 8, '0000000\0')
  field(116, 8, '0000000\0')
  field(124, 12, `${size.toString(8).padStart(11, '0')}\0`)
  field(136, 12, `${Math.floor(Date.now() / 1000).toString(8).padStart(11, '0')}\0`)
  field(148, 8, '        ')
  field(156, 1, '0')
  field(257, 8, 'ustar\u000000')
  let sum = 0
  for (const byte of block) sum += byte
  field(148, 8, `${sum.toString(8).padStart(6, '0')}\0 `)
  return block
}

export class TarWriter {
  // Level 1: most of a backup is already-compressed files (photos, the database dump), where more effort buys little and takes CPU from the running service.
  private readonly gzip: Gzip = createGzip({ level: 1 })
  private readonly file: WriteStream

  constructor(path: string) {
    this.file = createWriteStream(path)
    this.gzip.pipe(this.file)
  }

  private async write(chunk: Buffer | Uint8Array): Promise<void> {
    if (!this.gzip.write(chunk)) await once(this.gzip, 'drain')
  }

  /** One entry from `chunks` (which must add up to `size` bytes). */
  async add(name: string, size: number, chunks: AsyncIterable<Buffer | Uint8Array>): Promise<void> {
    await this.write(header(name, size))
    let written = 0
    for await (const chunk of chunks) {
      written += chunk.byteLength
      await this.write(chunk)
    }
    if (written !== size) throw new Error(`${name}: ${written} bytes, announced ${size}`)
    if (size % BLOCK) await this.write(Buffer.alloc(BLOCK - (size % BLOCK)))
  }

  async close(): Promise<void> {
    await this.write(Buffer.alloc(BLOCK * 2))
    this.gzip.end()
    await once(this.file, 'close')
  }
}

/** Every entry of a .tar.gz in order, each with its bytes in chunks (read them before the next). */
export async function* readTar(path: string): AsyncGenerator<{ name: string; size: number; chunks: AsyncGenerator<Buffer> }> {
  const input = createReadStream(path).pipe(createGunzip())
  let buffered = Buffer.alloc(0)
  const source = input[Symbol.asyncIterator]()
  const need = async (n: number): Promise<boolean> => {
    while (buffered.length < n) {
      const next = await source.next()
      if (next.done) return false
      buffered = Buffer.concat([buffered, next.value as Buffer])
    }
    return true
  }
  for (;;) {
    if (!(await need(BLOCK))) throw new Error('the archive ends early')
    const block = buffered.subarray(0, BLOCK)
    buffered = buffered.subarray(BLOCK)
    if (block.every((byte) => byte === 0)) return
    const name = block.toString('utf8', 0, 100).replace(/\0.*$/s, '')
    const size = Number.parseInt(block.toString('utf8', 124, 136).replace(/\0.*$/s, '').trim(), 8)
    if (!name || !Number.isSafeInteger(size)) throw new Error('the archive has a damaged entry header')
    let left = size
    async function* chunks(): AsyncGenerator<Buffer> {
      while (left > 0) {
        if (!(await need(1))) throw new Error(`the archive ends inside ${name}`)
        const part = buffered.subarray(0, Math.min(left, buffered.length))
        buffered = buffered.subarray(part.length)
        left -= part.length
        yield part
      }
    }
    const body = chunks()
    yield { name, size, chunks: body }
    // Whatever the caller left unread is skipped, then the padding.
    for await (const _ of body) void _
    const padding = size % BLOCK ? BLOCK - (size % BLOCK) : 0
    if (padding && !(await need(padding))) throw new Error('the archive ends early')
    buffered = buffered.subarray(padding)
  }
}
