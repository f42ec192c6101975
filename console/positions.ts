/** Block positions (document blocks sort by them byte-wise, fractional-indexing style). */
const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** A block position after `last` (positions sort byte-wise): its last character stepped up, or one more character. */
export function positionAfter(last?: string): string {
  if (!last) return 'a0'
  const i = DIGITS.indexOf(last.at(-1)!)
  return i >= 0 && i < DIGITS.length - 1 ? last.slice(0, -1) + DIGITS[i + 1] : `${last}0`
}
