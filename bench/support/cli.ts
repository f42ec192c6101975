/** The command line every bench shares. */
import { cleanup, hookSignals } from './cleanup'
import { saveResult } from './utils'
import { BACKENDS, type Backend } from './backends'

/** A bench as its own command line (`benchMain`) and bench/run.ts drive it. */
export interface BenchCommand<R extends { pass: boolean; failed?: boolean } = { pass: boolean; failed?: boolean }> {
  name: string
  /** Runs the bench with the options of `--key=value` arguments. */
  run(argv: string[]): Promise<R>
  /** Markdown table rows for bench/README.md. */
  table(result: R): string
  /** The bench/results/ file name, when not `name`. */
  file?(result: R): string
}

/** A bench's `import.meta.main`: runs it with this process's arguments, prints its table, writes its results, exits. */
export async function benchMain<R extends { pass: boolean; failed?: boolean }>(command: BenchCommand<R>): Promise<never> {
  hookSignals()
  printResult(command, await command.run(process.argv.slice(2)))
  await cleanup()
  process.exit(0)
}

/** Prints a bench's table and writes its results to bench/results/ (`saveResult`). */
export function printResult<R extends { pass: boolean; failed?: boolean }>(command: BenchCommand<R>, result: R): void {
  console.log(`\n${command.table(result)}`)
  console.log(`results: ${saveResult(command.file?.(result) ?? command.name, result)}`)
}

/** A markdown table: its header row, its alignment row, then `rows`. */
export const markdownTable = (header: string, align: string, rows: string[]) => [header, align, ...rows].join('\n')

/** Sets `opts[key]` to the number given as `--flag=…` for each `flag: key` of `keys`. */
export function numberFlags<T extends object>(flags: Map<string, string>, opts: T, keys: Record<string, keyof T>): T {
  for (const [flag, key] of Object.entries(keys)) if (flags.has(flag)) (opts as Record<keyof T, number>)[key] = Number(flags.get(flag))
  return opts
}

/** `--key=value` arguments as a map (flags without a value are ignored). */
export function benchFlags(argv: string[]): Map<string, string> {
  const flags = new Map<string, string>()
  for (const arg of argv) {
    const [k, v] = arg.replace(/^--/, '').split('=') as [string, string | undefined]
    if (v !== undefined) flags.set(k, v)
  }
  return flags
}

/**
 * The options of a bench's command line: `--db=pglite,postgres` as `backends`, and the number
 * flags `keys` names (see `numberFlags`); `flags` for the bench's other flags.
 */
export function benchArgs<T extends { backends?: Backend[] }>(argv: string[], keys: Record<string, keyof T>): { flags: Map<string, string>; opts: T } {
  const flags = benchFlags(argv)
  const opts = {} as T
  if (flags.has('db')) opts.backends = backendsFlag(flags.get('db')!)
  return { flags, opts: numberFlags(flags, opts, keys) }
}

/** The number flags of the wrk benches (P1–P3), for `benchArgs`. */
export const WRK_FLAGS = {
  duration: 'durationSec',
  rounds: 'rounds',
  warmup: 'warmupSec',
  threads: 'threads',
  connections: 'connections',
  'quiet-wait': 'quietWaitSec',
} as const

/** The settings of a wrk bench's measured rounds (its WRK_FLAGS). */
export interface WrkSettings {
  /** Seconds per measured wrk run. */
  durationSec: number
  /** Measured runs (of each route or flow the bench alternates). */
  rounds: number
  /** Seconds of warm-up before measuring. */
  warmupSec: number
  threads: number
  connections: number
  /** Before each measured run, wait up to this many seconds for the machine to go quiet (0: don't). */
  quietWaitSec: number
}

/** `options` over the bench's `defaults`, else 2 threads × 50 connections and at most 10 s of waiting for a quiet machine. */
export function wrkSettings(options: Partial<WrkSettings>, defaults: Pick<WrkSettings, 'durationSec' | 'rounds' | 'warmupSec'>): WrkSettings {
  return {
    durationSec: options.durationSec ?? defaults.durationSec,
    rounds: options.rounds ?? defaults.rounds,
    warmupSec: options.warmupSec ?? defaults.warmupSec,
    threads: options.threads ?? 2,
    connections: options.connections ?? 50,
    quietWaitSec: options.quietWaitSec ?? 10,
  }
}

/** A comma-separated flag's values that are among `known`. */
export const listFlag = <T extends string>(value: string, known: readonly T[]): T[] =>
  value.split(',').filter((x): x is T => (known as readonly string[]).includes(x))

/** `--db=pglite,postgres` as backends. */
export const backendsFlag = (value: string): Backend[] => listFlag(value, BACKENDS)
