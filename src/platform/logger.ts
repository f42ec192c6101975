import { activeTraceId } from './tracing'

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const
export type LogLevel = keyof typeof LEVELS

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void
  info(msg: string, fields?: Record<string, unknown>): void
  warn(msg: string, fields?: Record<string, unknown>): void
  error(msg: string, fields?: Record<string, unknown>): void
}

/** One JSON object per line on stdout. Callers pass only non-secret fields. A line written inside a traced request or job carries its `traceId`. */
export function createLogger(level: LogLevel, write: (line: string) => void = (l) => process.stdout.write(l)): Logger {
  const min = LEVELS[level]
  const log = (lvl: Exclude<LogLevel, 'silent'>) => (msg: string, fields?: Record<string, unknown>) => {
    if (LEVELS[lvl] < min) return
    const traceId = activeTraceId()
    write(`${JSON.stringify({ level: lvl, time: new Date().toISOString(), msg, ...(traceId ? { traceId } : {}), ...fields })}\n`)
  }
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') }
}

/**
 * Logs at most `perMinute` lines per key (e.g. an error's kind and message) each minute; the first
 * line after a quiet spell says how many were suppressed. So a flood of requests that all fail the
 * same way cannot turn into a flood of log lines.
 */
export function throttledLog(log: (msg: string, fields?: Record<string, unknown>) => void, perMinute: number, now: () => number = Date.now) {
  const windows = new Map<string, { start: number; count: number; suppressed: number }>()
  return (key: string, msg: string, fields: Record<string, unknown>) => {
    const t = now()
    let w = windows.get(key)
    if (!w || t - w.start >= 60_000) {
      const suppressed = w?.suppressed ?? 0
      if (windows.size >= 1000) windows.clear()
      w = { start: t, count: 0, suppressed: 0 }
      windows.set(key, w)
      if (suppressed) fields = { ...fields, suppressedBefore: suppressed }
    }
    if (w.count >= perMinute) {
      w.suppressed++
      return
    }
    w.count++
    log(msg, fields)
  }
}
