import { eq } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { randomToken, sha256Hex } from '../../platform/crypto'
import { AppError } from '../../platform/errors'
import { meetsLevel, type Role, type StreamCredential, type Tenant, type TenantLevel, type TicketSource } from '../../platform/tenancy'
import { tickets } from './schema'

export const TICKET_TTL_SECONDS = 60
const PREFIX = 'rt_'

const refused = () => new AppError(401, 'unauthorized', 'The stream ticket is unknown, used or expired')

/**
 * Single-use stream tickets: what a browser's EventSource (which cannot send headers) presents as
 * `?ticket=`. Stored hashed, bound to the caller's tenant and credential, valid 60 s, spent on
 * first use on any replica; the credential is checked again when it is spent.
 */
export class StreamTickets implements TicketSource {
  constructor(
    private readonly deps: Pick<Deps, 'db' | 'now'>,
    private readonly check: {
      alive(credential: StreamCredential, tenant: Tenant): Promise<boolean>
      roleOf(userId: string, organizationId: string): Promise<Role | null>
    },
  ) {}

  async issue(tenant: Tenant, credential: StreamCredential): Promise<{ ticket: string; expiresAt: string }> {
    const raw = PREFIX + randomToken(24)
    const expiresAt = new Date(this.deps.now().getTime() + TICKET_TTL_SECONDS * 1000)
    await this.deps.db.insert(tickets).values({
      hash: sha256Hex(raw),
      ecosystemId: tenant.ecosystemId,
      organizationId: tenant.organizationId,
      customerId: tenant.customerId,
      kind: credential.kind,
      subjectId: credential.subjectId,
      sessionId: credential.sessionId,
      apiTokenId: credential.apiTokenId,
      credentialExpiresAt: credential.expiresAt === null ? null : new Date(credential.expiresAt),
      expiresAt,
    })
    return { ticket: raw, expiresAt: expiresAt.toISOString() }
  }

  async redeem(raw: string, level: TenantLevel): Promise<{ tenant: Tenant; credential: StreamCredential }> {
    if (!raw.startsWith(PREFIX) || raw.length > 100) throw refused()
    const [row] = await this.deps.db
      .delete(tickets)
      .where(eq(tickets.hash, sha256Hex(raw)))
      .returning()
    if (!row || row.expiresAt <= this.deps.now()) throw refused()
    const role = row.kind === 'user' ? await this.check.roleOf(row.subjectId, row.organizationId) : null
    if (row.kind === 'user' && !role) throw new AppError(403, 'forbidden', 'You are not a member of this ecosystem')
    const tenant: Tenant = {
      ecosystemId: row.ecosystemId,
      organizationId: row.organizationId,
      customerId: row.customerId,
      actor: row.kind === 'user' ? { kind: 'user', userId: row.subjectId, role: role!, apiTokenId: row.apiTokenId } : { kind: 'customer' },
    }
    if (!meetsLevel(tenant, level)) throw new AppError(403, 'forbidden', `This operation needs the ${level} role`)
    const credential: StreamCredential = {
      key: `${row.apiTokenId ? 't' : row.kind[0]}:${row.apiTokenId ?? row.sessionId}:${row.ecosystemId}`,
      kind: row.kind,
      subjectId: row.subjectId,
      sessionId: row.sessionId,
      apiTokenId: row.apiTokenId,
      expiresAt: row.credentialExpiresAt?.getTime() ?? null,
    }
    if ((credential.expiresAt !== null && credential.expiresAt <= Date.now()) || !(await this.check.alive(credential, tenant))) {
      throw new AppError(401, 'unauthorized', 'The session or token the ticket was issued to has ended')
    }
    return { tenant, credential }
  }
}
