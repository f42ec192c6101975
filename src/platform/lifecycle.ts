import { dlopen, FFIType } from 'bun:ffi'
import { accessSync, closeSync, constants, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs'
import { join, resolve } from 'node:path'

/** A boot step that cannot go on: index.ts prints its message as the one line and exits 1. */
export class LifecycleError extends Error {}

const LOCK_EX = 2
const LOCK_NB = 4
/** Where flock(2) lives: glibc, musl, macOS. */
const LIBC_NAMES = process.platform === 'darwin' ? ['libc.dylib'] : ['libc.so.6', 'libc.so', 'libc.musl-x86_64.so.1', 'libc.musl-aarch64.so.1']
type Flock = (fd: number, op: number) => number
let flock: Flock | null | undefined

function loadFlock(): Flock | null {
  for (const name of LIBC_NAMES) {
    try {
      const lib = dlopen(name, { flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 } })
      return (fd, op) => lib.symbols.flock(fd, op)
    } catch {}
  }
  return null
}

/**
 * Makes DATA_DIR (and its parents) or says in one line why it cannot be written: the first thing
 * boot touches there, so an unwritable directory never ends in a stack trace.
 */
export function ensureWritableDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true })
    accessSync(dir, constants.W_OK)
  } catch (err) {
    throw new LifecycleError(`DATA_DIR ${resolve(dir)} is not writable (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`)
  }
}

/**
 * Takes an exclusive flock(2) on DATA_DIR/ecobase.lock for the life of the process, so that two
 * servers never share one embedded database: each would keep its own view and the last to stop
 * would overwrite the other's writes. The kernel releases the lock when the process ends, however
 * it ends (kill -9 included); the pid inside only names the holder in the refusal.
 */
export function lockDataDir(dir: string, warn: (msg: string, fields?: Record<string, unknown>) => void): { release(): void } {
  const file = join(dir, 'ecobase.lock')
  const fd = openSync(file, 'a+')
  if (flock === undefined) flock = loadFlock()
  if (!flock) {
    warn('DATA_DIR is not locked: no flock(2) on this platform; run one server per data directory', { platform: process.platform })
    return { release: () => closeSync(fd) }
  }
  if (flock(fd, LOCK_EX | LOCK_NB) !== 0) {
    const holder = readFileSync(file, 'utf8').trim()
    closeSync(fd)
    throw new LifecycleError(
      `DATA_DIR ${resolve(dir)} is in use by another Ecobase process${holder ? ` (pid ${holder})` : ''}; one server per embedded data directory`,
    )
  }
  ftruncateSync(fd, 0)
  writeSync(fd, String(process.pid))
  return { release: () => closeSync(fd) }
}

/** Bun.serve's error for a taken port, as one line naming it. */
export function portTaken(err: unknown, host: string, port: number): LifecycleError | null {
  const code = (err as { code?: string }).code
  if (code !== 'EADDRINUSE' && !/in use/i.test(String((err as Error).message))) return null
  return new LifecycleError(`PORT ${port} on ${host} is already in use by another process`)
}
