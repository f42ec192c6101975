import { eq } from 'drizzle-orm'
import type { Deps } from '../../deps'
import type { Principal } from '../../platform/auth'
import type { AuditService } from '../audit/service'
import { authMethods } from './schema'
import { settingsError } from './errors'

/** Sign-in methods the platform knows, with their default when no admin has set them. */
export const AUTH_METHODS = { password: true } as const
export type AuthMethod = keyof typeof AUTH_METHODS

export class SettingsService {
  constructor(
    private readonly deps: Pick<Deps, 'db' | 'now'>,
    private readonly audit: AuditService,
  ) {}

  async listAuthMethods(): Promise<{ method: string; enabled: boolean }[]> {
    const rows = await this.deps.db.select().from(authMethods)
    const stored = new Map(rows.map((r) => [r.method, r.enabled]))
    return Object.entries(AUTH_METHODS).map(([method, byDefault]) => ({
      method,
      enabled: stored.get(method) ?? byDefault,
    }))
  }

  async isEnabled(method: AuthMethod): Promise<boolean> {
    const [row] = await this.deps.db.select().from(authMethods).where(eq(authMethods.method, method))
    return row?.enabled ?? AUTH_METHODS[method]
  }

  async setAuthMethod(method: string, enabled: boolean, by: Principal): Promise<{ method: string; enabled: boolean }> {
    if (!Object.hasOwn(AUTH_METHODS, method)) throw settingsError(404, 'not_found', `Unknown sign-in method "${method}"`)
    const values = { method, enabled, updatedBy: by.userId, updatedAt: this.deps.now() }
    await this.deps.db.transaction(async (tx) => {
      await tx
        .insert(authMethods)
        .values(values)
        .onConflictDoUpdate({ target: authMethods.method, set: { enabled, updatedBy: by.userId, updatedAt: values.updatedAt } })
      await this.audit.record(tx, by, { action: 'settings.auth_method.changed', target: { type: 'auth_method', id: method }, metadata: { method, enabled } })
    })
    return { method, enabled }
  }
}
