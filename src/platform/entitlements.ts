import type { Db } from './db'
import { AppError } from './errors'

/** The features Ecobase meters itself: bytes stored (a limit) and chat messages sent (metered, monthly). */
export const STORAGE_BYTES = 'storage.bytes'
export const CHAT_MESSAGES = 'chat.messages'

/**
 * What the areas that Ecobase meters ask of billing before they do the work (storage presign,
 * chat send): throws 402 `entitlement_exceeded` when the customer's plan does not allow `amount`
 * more of `feature`. `used` is the use the caller already knows (storage's byte counter);
 * `reserve` records the use in the same step, in the caller's transaction `tx` when given, so the
 * work and its count commit together.
 */
export interface EntitlementGate {
  require(input: { ecosystemId: string; customerId: string; feature: string; amount: number; used?: number; reserve?: boolean; tx?: Db }): Promise<void>
  /**
   * A reserve that needs no transaction and no write: when the plan leaves `feature` unbounded, or
   * this replica holds enough of it ahead (a lease), the hold to `commit` once the work it allows
   * is written (or `release` when that failed). Null: reserve with `require({ reserve, tx })` in
   * the transaction that writes the work.
   */
  hold(input: { ecosystemId: string; customerId: string; feature: string; amount: number }): Promise<Hold | null>
}

export interface Hold {
  commit(): void
  release(): void
}

const NO_HOLD: Hold = { commit: () => {}, release: () => {} }

/** A gate that allows everything (an app built without billing, e.g. some tests' services). */
export const OPEN_GATE: EntitlementGate = { require: async () => {}, hold: async () => NO_HOLD }

export function entitlementExceeded(feature: string, limit: number, used: number, requested: number): AppError {
  return new AppError(402, 'entitlement_exceeded', `The plan allows ${limit} of ${feature}; ${used} used, ${requested} more requested`, {
    feature,
    limit,
    used,
    requested,
  })
}
