/**
 * The POSIX tar a backup needs, entry by entry, as streams. Written: regular files, with ustar's
 * 100-byte name field, its 155-byte prefix field, and a pax extended header (`path=`, `size=`) for
 * any name or size those cannot hold, as GNU tar, bsdtar and Python's tarfile write and read.
 * Read: ustar, pax extended headers and GNU long names, so an archive repacked with `tar` is read
 * too; every entry's type is reported (the caller refuses what a backup never holds).
 */
const BLOCK = 512
/** A pax header's or a GNU long name's bytes are read into memory: at most this many. */
export const MAX_META_BYTES = 1 << 20
/** The largest size ustar's 11 octal digits hold (8 GiB - 1); beyond it the size goes in a pax record. */
const USTAR_MAX_SIZE = 0o77777777777

/** An archive that is not well-formed tar. */
export class TarError extends Error {}

export type EntryType = 'file' | 'directory' | 'symlink' | 'hardlink' | 'other'

export interface TarEntry {
  name: string
  type: EntryType
  size: number
  /** The entry's bytes; read them (or not) before asking for the next entry. */
  chunks: AsyncGenerator<Buffer>
}

function header(name: string, prefix: string, size: number, type: string): Buffer {
  const block = Buffer.alloc(BLOCK)
  const field = (offset: number, length: number, value: string) => block.write(value, offset, length, 'utf8')
  const octal = (value: number, digits: number) => `${value.toString(8).padStart(digits, '0')}\0`
  field(0, 100, name)
  field(100, 8, '0000644\0')
  field(108, 8, '0000000\0')
  field(116, 8, '0000000\0')
  field(124, 12, octal(Math.min(size, USTAR_MAX_SIZE), 11))
  field(136, 12, octal(Math.floor(Date.now() / 1000), 11))
  field(148, 8, '        ')
  field(156, 1, type)
  field(257, 8, 'ustar\u000000')
  field(345, 155, prefix)
  let sum = 0
  for (const byte of block) sum += byte
  field(148, 8, `${sum.toString(8).padStart(6, '0')}\0 `)
  return block
}

/** ustar's name and prefix for `name`, split at a `/`, or null when it does not fit them. */
function ustarName(name: string): { name: string; prefix: string } | null {
  if (Buffer.byteLength(name) <= 100) return { name, prefix: '' }
  for (let at = name.indexOf('/'); at !== -1; at = name.indexOf('/', at + 1)) {
    const [prefix, rest] = [name.slice(0, at), name.slice(at + 1)]
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(rest) <= 100 && rest) return { name: rest, prefix }
  }
  return null
}

/** One pax record, `<length> <key>=<value>\n`, where the length counts itself. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`
  let length = Buffer.byteLength(body) + 1
  while (String(length).length + Buffer.byteLength(body) !== length) length++
  return `${length}${body}`
}

/** Writes entries to `write` (which resolves once the bytes are taken: backpressure). */
export class TarWriter {
  constructor(private readonly write: (chunk: Buffer | Uint8Array) => Promise<void>) {}

  /** One regular file of `size` bytes from `chunks` (which must add up to `size`). */
  async add(name: string, size: number, chunks: AsyncIterable<Buffer | Uint8Array> | Iterable<Buffer | Uint8Array>): Promise<void> {
    await this.header(name, size, '0')
    let written = 0
    for await (const chunk of chunks) {
      written += chunk.byteLength
      if (written > size) throw new TarError(`${name}: more than the ${size} bytes announced`)
      await this.write(chunk)
    }
    if (written !== size) throw new TarError(`${name}: ${written} bytes, announced ${size}`)
    await this.pad(size)
  }

  /** A directory (an empty one is kept too: PostgreSQL's data directory needs some). */
  async addDirectory(name: string): Promise<void> {
    await this.header(`${name}/`, 0, '5')
  }

  /** The two empty blocks that end an archive. */
  async end(): Promise<void> {
    await this.write(Buffer.alloc(BLOCK * 2))
  }

  /** The entry's header, after a pax header when ustar's fields cannot hold its name or size. */
  private async header(name: string, size: number, type: string): Promise<void> {
    const fits = ustarName(name)
    const records = (fits ? '' : paxRecord('path', name)) + (size > USTAR_MAX_SIZE ? paxRecord('size', String(size)) : '')
    if (records) {
      const data = Buffer.from(records)
      await this.write(header('PaxHeader', '', data.byteLength, 'x'))
      await this.write(data)
      await this.pad(data.byteLength)
    }
    // Without a fitting name, old readers that skip pax headers see the name's end.
    const placed = fits ?? { name: Buffer.from(name).subarray(-100).toString('utf8'), prefix: '' }
    await this.write(header(placed.name, placed.prefix, size, type))
  }

  private async pad(size: number): Promise<void> {
    if (size % BLOCK) await this.write(Buffer.alloc(BLOCK - (size % BLOCK)))
  }
}

const TYPES: Record<string, EntryType> = { '0': 'file', '\0': 'file', '7': 'file', '5': 'directory', '2': 'symlink', '1': 'hardlink' }

function text(block: Buffer, offset: number, length: number): string {
  const field = block.subarray(offset, offset + length)
  const end = field.indexOf(0)
  return field.subarray(0, end === -1 ? length : end).toString('utf8')
}

/** A numeric field: octal text, or GNU's base-256 (first byte's high bit set) for large values. */
function number(block: Buffer, offset: number, length: number): number {
  if (block[offset]! & 0x80) {
    let value = block[offset]! & 0x7f
    for (let i = 1; i < length; i++) value = value * 256 + block[offset + i]!
    return value
  }
  const digits = text(block, offset, length).trim()
  return /^[0-7]+$/.test(digits) ? Number.parseInt(digits, 8) : Number.NaN
}

function checksumOk(block: Buffer): boolean {
  let sum = 0
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : block[i]!
  return number(block, 148, 8) === sum
}

function paxRecords(data: Buffer): Map<string, string> {
  const records = new Map<string, string>()
  let at = 0
  while (at < data.length) {
    const space = data.indexOf(0x20, at)
    const length = Number(data.toString('utf8', at, space))
    if (space === -1 || !Number.isSafeInteger(length) || length <= space - at || at + length > data.length || data[at + length - 1] !== 0x0a)
      throw new TarError('the archive has a damaged pax header')
    const record = data.toString('utf8', space + 1, at + length - 1)
    const eq = record.indexOf('=')
    if (eq < 1) throw new TarError('the archive has a damaged pax header')
    records.set(record.slice(0, eq), record.slice(eq + 1))
    at += length
  }
  return records
}

/** Every entry of a tar stream in order. Pax and GNU long-name headers are applied to the entry they describe, never reported. */
export async function* readTar(source: AsyncIterable<Buffer | Uint8Array>): AsyncGenerator<TarEntry> {
  const input = source[Symbol.asyncIterator]()
  let buffered = Buffer.alloc(0)
  const need = async (n: number): Promise<boolean> => {
    while (buffered.length < n) {
      const next = await input.next()
      if (next.done) return false
      buffered = buffered.length ? Buffer.concat([buffered, Buffer.from(next.value)]) : Buffer.from(next.value)
    }
    return true
  }
  const take = async (n: number, what: string): Promise<Buffer> => {
    if (!(await need(n))) throw new TarError(`the archive ends inside ${what}`)
    const taken = buffered.subarray(0, n)
    buffered = buffered.subarray(n)
    return taken
  }
  const padding = (size: number) => (size % BLOCK ? BLOCK - (size % BLOCK) : 0)
  let pending: { path?: string; size?: number } = {}
  for (;;) {
    if (!(await need(BLOCK))) throw new TarError('the archive ends early (no end-of-archive blocks)')
    const block = await take(BLOCK, 'a header')
    if (block.every((byte) => byte === 0)) return
    if (!checksumOk(block)) throw new TarError('the archive has a damaged entry header (checksum)')
    const flag = String.fromCharCode(block[156]!)
    let size = number(block, 124, 12)
    if (!Number.isSafeInteger(size) || size < 0) throw new TarError('the archive has a damaged entry header (size)')
    if (flag === 'x' || flag === 'g' || flag === 'L' || flag === 'K') {
      if (size > MAX_META_BYTES)
        throw new TarError(`the archive has a ${size}-byte ${flag === 'L' || flag === 'K' ? 'long name' : 'pax header'}: at most ${MAX_META_BYTES}`)
      const data = Buffer.from(await take(size, 'a header'))
      await take(padding(size), 'a header')
      if (flag === 'x') {
        const records = paxRecords(data)
        const path = records.get('path')
        const paxSize = records.get('size')
        if (path !== undefined) pending.path = path
        if (paxSize !== undefined) {
          if (!/^\d+$/.test(paxSize) || !Number.isSafeInteger(Number(paxSize))) throw new TarError('the archive has a damaged pax header (size)')
          pending.size = Number(paxSize)
        }
      } else if (flag === 'L') pending.path = text(data, 0, data.length)
      // A global pax header ('g') and a GNU long link target ('K') change nothing a backup reads.
      continue
    }
    const ustar = block.toString('latin1', 257, 262) === 'ustar'
    const prefix = ustar ? text(block, 345, 155) : ''
    const name = pending.path ?? (prefix ? `${prefix}/${text(block, 0, 100)}` : text(block, 0, 100))
    if (pending.size !== undefined) size = pending.size
    pending = {}
    if (!name) throw new TarError('the archive has an entry without a name')
    const type = TYPES[flag] ?? 'other'
    // Links and directories carry no data whatever their size field says.
    if (type !== 'file' && type !== 'other') size = 0
    let left = size
    async function* chunks(): AsyncGenerator<Buffer> {
      while (left > 0) {
        if (!(await need(1))) throw new TarError(`the archive ends inside ${name}`)
        const part = buffered.subarray(0, Math.min(left, buffered.length))
        buffered = buffered.subarray(part.length)
        left -= part.length
        yield part
      }
    }
    const body = chunks()
    yield { name, type, size, chunks: body }
    // Whatever the caller left unread is skipped, then the padding.
    for await (const _ of body) void _
    await take(padding(size), name)
  }
}
