import { eq } from 'drizzle-orm'
import { createApp } from '../app'
import type { Deps } from '../deps'
import { AuditService, systemActor } from '../modules/audit/service'
import { NewPassword } from '../modules/auth/model'
import { Passwords } from '../modules/auth/passwords'
import { users } from '../modules/auth/schema'
import { insertPasswordAccount, USER_CACHE } from '../modules/auth/service'
import { announceChange } from '../platform/replica-cache'

/** A command that cannot do what it was asked, for a reason the operator can fix (exit 1). */
export class CommandError extends Error {}

/**
 * Makes the account with `email` a platform admin, creating it (with `password`) when there is none;
 * one transaction, with an audit event naming the command line.
 */
export async function adminCreate(
  deps: Pick<Deps, 'db' | 'now' | 'config'>,
  input: { email: string; name: string | null; password: string | null },
): Promise<'created' | 'promoted' | 'unchanged'> {
  const email = input.email.trim()
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new CommandError(`--email: ${email} is not an e-mail address`)
  const emailKey = email.toLowerCase()
  const hash = input.password === null ? null : await hashed(deps, input.password)
  return deps.db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: users.id, isAdmin: users.isAdmin }).from(users).where(eq(users.emailKey, emailKey)).for('update')
    const audit = new AuditService(deps)
    if (existing) {
      if (existing.isAdmin) return 'unchanged'
      await tx.update(users).set({ isAdmin: true, updatedAt: deps.now() }).where(eq(users.id, existing.id))
      await announceChange(tx, USER_CACHE.channel, existing.id)
      await audit.record(tx, systemActor('cli'), { action: 'settings.admin.granted', target: { type: 'user', id: existing.id }, metadata: { isAdmin: true } })
      return 'promoted'
    }
    if (hash === null) throw new CommandError(`no account has the e-mail ${email}: give its password with --password-stdin to create it`)
    const created = await insertPasswordAccount(tx, { email, name: input.name ?? email.split('@')[0]!, passwordHash: hash, isAdmin: true })
    await audit.record(tx, systemActor('cli'), {
      action: 'settings.admin.granted',
      target: { type: 'user', id: created.id },
      metadata: { isAdmin: true, created: true },
    })
    return 'created'
  })
}

/**
 * Removes every second factor, passkey and recovery code of the account with `email` and ends its
 * sessions, through the same service as DELETE /auth/admin/users/{id}/factors (audited as by
 * `system:cli`; the owner's e-mail is queued and goes once a server runs): for an owner who lost
 * both device and recovery codes. How many verified factors went.
 */
export async function adminResetMfa(deps: Deps, input: { email: string }): Promise<number> {
  const { auth } = createApp(deps).services
  const userId = await auth.accounts.findIdByEmail(input.email)
  if (!userId) throw new CommandError(`no account has the e-mail ${input.email.trim()}`)
  await deps.queue.prepare()
  try {
    return (await auth.mfa.reset(systemActor('cli'), userId)) ?? 0
  } finally {
    await deps.queue.stop()
  }
}

async function hashed(deps: Pick<Deps, 'config'>, password: string): Promise<string> {
  const [min, max] = [NewPassword.minLength!, NewPassword.maxLength!]
  if (password.length < min || password.length > max) throw new CommandError(`the password needs ${min} to ${max} characters`)
  return new Passwords(deps.config.password).hash(password)
}
