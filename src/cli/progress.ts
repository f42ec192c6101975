import type { Progress } from '../platform/backup/archive'

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`

/**
 * Long work as it goes: on a terminal one bar, redrawn (bytes and percent, the part at hand); to a
 * file or pipe a plain line per finished part, so logs stay readable.
 */
export function progressReporter(out: { isTTY?: boolean; write(text: string): unknown }): Progress {
  let drawn = 0
  return (step) => {
    if ('note' in step) {
      out.write(`${drawn ? '\n' : ''}  ${step.note}\n`)
      drawn = 0
      return
    }
    if (!out.isTTY) {
      if (step.finished) out.write(`  ${step.part} (${megabytes(step.done)} of ${megabytes(step.total)})\n`)
      return
    }
    const now = Date.now()
    if (!step.finished && now - drawn < 100) return
    drawn = now
    const share = step.total ? step.done / step.total : 1
    const bar = '#'.repeat(Math.round(share * 30)).padEnd(30, '-')
    out.write(
      `\r  [${bar}] ${String(Math.floor(share * 100)).padStart(3)}% ${megabytes(step.done)}/${megabytes(step.total)} ${step.part.slice(0, 40).padEnd(40)}`,
    )
    if (step.finished && step.done === step.total) {
      out.write('\n')
      drawn = 0
    }
  }
}
