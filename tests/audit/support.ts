import { expect } from 'bun:test'
import { asc, eq } from 'drizzle-orm'
import { auditEvents } from '../../src/modules/audit/schema'
import type { CallOptions, Harness } from '../support/harness'

/** Request headers of a distinct origin `n` (the harness runs with TRUST_PROXY=on, so X-Forwarded-For is the client address). */
export const origin = (n: number) => ({ 'x-forwarded-for': `203.0.113.${n}`, 'user-agent': `audit-test/${n}`, 'x-request-id': `audit-req-${n}` })

/** Call options acting as `user` from origin `n`, inside `ecosystemId` when given. */
export function from(n: number, user?: { token: string }, ecosystemId?: string): CallOptions {
  return { token: user?.token, headers: { ...origin(n), ...(ecosystemId ? { 'x-ecosystem-id': ecosystemId } : {}) } }
}

export type AuditRow = typeof auditEvents.$inferSelect

/** Every stored event of `action`, oldest first, read from the table. */
export function stored(h: Harness, action: string): Promise<AuditRow[]> {
  return h.db.select().from(auditEvents).where(eq(auditEvents.action, action)).orderBy(asc(auditEvents.at), asc(auditEvents.id))
}

/** The one stored event of `action` whose target is `targetId`; fails unless there is exactly one. */
export async function only(h: Harness, action: string, targetId: string | null): Promise<AuditRow> {
  const rows = (await stored(h, action)).filter((r) => r.targetId === targetId)
  expect(rows.length, `${action} events for ${targetId}`).toBe(1)
  return rows[0]!
}

/** The event came from origin `n`. */
export function expectOrigin(row: AuditRow, n: number): void {
  const o = origin(n)
  expect({ ip: row.ip, userAgent: row.userAgent, requestId: row.requestId }, row.action).toEqual({
    ip: o['x-forwarded-for'],
    userAgent: o['user-agent'],
    requestId: o['x-request-id'],
  })
}

/** No stored audit event, metadata included, holds any of `secrets`. */
export async function expectNoneStored(h: Harness, secrets: string[]): Promise<void> {
  const rows = await h.db.select().from(auditEvents)
  expect(rows.length).toBeGreaterThan(0)
  for (const row of rows) {
    const text = JSON.stringify(row)
    for (const secret of secrets) expect(text.includes(secret), `${row.action} holds ${secret}`).toBe(false)
  }
}
