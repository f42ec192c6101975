const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const
export type LogLevel = keyof typeof LEVELS

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void
  info(msg: string, fields?: Record<string, unknown>): void
  warn(msg: string, fields?: Record<string, unknown>): void
  error(msg: string, fields?: Record<string, unknown>): void
}

/** One JSON object per line on stdout. Callers pass only non-secret fields. */
export function createLogger(level: LogLevel, write: (line: string) => void = (l) => process.stdout.write(l)): Logger {
  const min = LEVELS[level]
  const log = (lvl: Exclude<LogLevel, 'silent'>) => (msg: string, fields?: Record<string, unknown>) => {
    if (LEVELS[lvl] < min) return
    write(JSON.stringify({ level: lvl, time: new Date().toISOString(), msg, ...fields }) + '\n')
  }
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') }
}
