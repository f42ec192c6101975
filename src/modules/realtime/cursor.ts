/** Positions in the realtime outbox and the cursors streams send for them. */

/**
 * A place in the outbox: `(pos, seq)`, the writing transaction's place in commit order and the row's
 * within it; rows are read and delivered in this order.
 */
export type Position = readonly [pos: number, seq: number]
/** Before every change. */
export const ORIGIN: Position = [0, 0]
export const isAfter = (a: Position, b: Position) => a[0] > b[0] || (a[0] === b[0] && a[1] > b[1])

/** A position as streams send it (`id:`) and take it back (`Last-Event-ID`, `?since=`): `<epoch>.<pos>.<seq>`. */
export const cursorOf = (epoch: string, p: Position) => `${epoch}.${p[0]}.${p[1]}`

/**
 * A cursor as sent back: this form with its epoch, or `legacy` for the form older versions sent
 * (`<tx>-<seq>`, a place this instance no longer numbers), or null for text no version sent.
 */
export function parseCursor(text: string): { epoch: string; position: Position } | 'legacy' | null {
  const match = /^([0-9a-f]{8})\.(\d{1,15})\.(\d{1,15})$/.exec(text)
  if (match) return { epoch: match[1]!, position: [Number(match[2]), Number(match[3])] }
  return /^\d{1,15}-\d{1,15}$/.test(text) ? 'legacy' : null
}
