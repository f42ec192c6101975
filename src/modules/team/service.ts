import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import type { Principal } from '../../platform/auth'
import type { Db } from '../../platform/db'
import { isUniqueViolation } from '../../platform/db'
import { teamError } from './errors'
import { pageOf, type PageParams } from '../../platform/paging'
import type { Role } from '../../platform/tenancy'
import type { Accounts } from '../auth/service'
import type { AuditService } from '../audit/service'
import { accountDirectory } from '../auth/directory'
import { members, teams } from './schema'

const RANK: Record<Role, number> = { member: 1, admin: 2, owner: 3 }
const notFound = () => teamError(404, 'not_found', 'No such organization or member')
const lastOwner = () => teamError(409, 'last_owner', 'An organization must keep at least one owner')

type MemberRow = typeof members.$inferSelect

/** Organization teams: roles owner > admin > member, and the rule that one owner always remains. */
export class TeamService {
  constructor(
    private readonly deps: Pick<Deps, 'db' | 'now'>,
    private readonly accounts: Accounts,
    private readonly audit: AuditService,
  ) {}

  /** The admin team of a new organization, with its creator as owner (in the caller's transaction). */
  async createTeam(tx: Db, organizationId: string, name: string, ownerId: string): Promise<string> {
    const [team] = await tx.insert(teams).values({ organizationId, name }).returning({ id: teams.id })
    await tx.insert(members).values({ teamId: team!.id, userId: ownerId, role: 'owner' })
    return team!.id
  }

  async roleOf(userId: string, organizationId: string, db: Db = this.deps.db): Promise<Role | null> {
    const [row] = await db
      .select({ role: members.role })
      .from(members)
      .innerJoin(teams, eq(teams.id, members.teamId))
      .where(and(eq(teams.organizationId, organizationId), eq(members.userId, userId)))
    return row?.role ?? null
  }

  /** The organization's admins and owners with their account e-mail, for what the service tells them (admin alerts). */
  async adminContacts(organizationId: string, db: Db = this.deps.db): Promise<{ userId: string; email: string }[]> {
    const held = await db
      .select({ userId: members.userId })
      .from(members)
      .innerJoin(teams, eq(teams.id, members.teamId))
      .where(and(eq(teams.organizationId, organizationId), inArray(members.role, ['admin', 'owner'])))
    const emails = await accountDirectory.emails(
      db,
      held.map((m) => m.userId),
    )
    return held.flatMap(({ userId }) => {
      const email = emails.get(userId)
      return email ? [{ userId, email }] : []
    })
  }

  /** Organizations the user belongs to, with the role held in each. */
  async memberships(userId: string): Promise<{ organizationId: string; role: Role; teamId: string }[]> {
    return this.deps.db
      .select({ organizationId: teams.organizationId, role: members.role, teamId: teams.id })
      .from(members)
      .innerJoin(teams, eq(teams.id, members.teamId))
      .where(eq(members.userId, userId))
  }

  /** Throws 404 unless the user is a member, 403 unless the role reaches `needed`. */
  async require(userId: string, organizationId: string, needed: Role, db: Db = this.deps.db): Promise<Role> {
    const role = await this.roleOf(userId, organizationId, db)
    if (!role) throw notFound()
    if (RANK[role] < RANK[needed]) throw teamError(403, 'forbidden', `This operation needs the ${needed} role`)
    return role
  }

  async list(userId: string, organizationId: string, page: PageParams) {
    await this.require(userId, organizationId, 'member')
    const team = await this.teamOf(organizationId)
    const where = eq(members.teamId, team)
    const [rows, [count]] = await Promise.all([
      this.deps.db.select().from(members).where(where).orderBy(asc(members.createdAt), asc(members.id)).limit(page.pageSize).offset(page.offset),
      this.deps.db.select({ n: sql<number>`count(*)::int` }).from(members).where(where),
    ])
    return pageOf(await this.views(rows, organizationId), count!.n, page)
  }

  /** Team changes are organization-wide: their audit events (`team.member.*`) carry the organization and no ecosystem. */
  async add(by: Principal, input: { organizationId: string; email: string; role: Role }) {
    const callerRole = await this.require(by.userId, input.organizationId, 'admin')
    if (input.role === 'owner' && callerRole !== 'owner') throw teamError(403, 'forbidden', 'Only owners can add owners')
    const memberId = await this.accounts.findIdByEmail(input.email)
    if (!memberId) throw teamError(404, 'user_not_found', 'No account has this e-mail; ask them to register first')
    const teamId = await this.teamOf(input.organizationId)
    try {
      const row = await this.deps.db.transaction(async (tx) => {
        const [row] = await tx.insert(members).values({ teamId, userId: memberId, role: input.role }).returning()
        await this.audit.record(tx, by, {
          action: 'team.member.added',
          target: { type: 'team_member', id: row!.id },
          organizationId: input.organizationId,
          metadata: { userId: memberId, role: input.role },
        })
        return row!
      })
      return (await this.views([row], input.organizationId))[0]!
    } catch (err) {
      if (isUniqueViolation(err)) throw teamError(409, 'already_member', 'This account is already a member')
      throw err
    }
  }

  async changeRole(by: Principal, memberId: string, role: Role) {
    return this.deps.db
      .transaction(async (tx) => {
        const { member, organizationId } = await this.lockTeamOf(tx, memberId)
        const callerRole = await this.require(by.userId, organizationId, 'admin', tx)
        if ((role === 'owner' || member.role === 'owner') && callerRole !== 'owner') {
          throw teamError(403, 'forbidden', 'Only owners can grant or take away the owner role')
        }
        if (member.role === 'owner' && role !== 'owner') await this.keepAnOwner(tx, member)
        const [row] = await tx.update(members).set({ role, updatedAt: this.deps.now() }).where(eq(members.id, memberId)).returning()
        if (member.role !== role) {
          await this.audit.record(tx, by, {
            action: 'team.member.role_changed',
            target: { type: 'team_member', id: memberId },
            organizationId,
            metadata: { userId: member.userId, from: member.role, to: role },
          })
        }
        return { row: row!, organizationId }
      })
      .then(({ row, organizationId }) => this.views([row], organizationId).then((v) => v[0]!))
  }

  /** Removes a member; anyone may leave, admins remove members, only owners remove owners. */
  async remove(by: Principal, memberId: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const { member, organizationId } = await this.lockTeamOf(tx, memberId)
      if (member.userId !== by.userId) {
        const callerRole = await this.require(by.userId, organizationId, 'admin', tx)
        if (member.role === 'owner' && callerRole !== 'owner') throw teamError(403, 'forbidden', 'Only owners can remove owners')
      }
      if (member.role === 'owner') await this.keepAnOwner(tx, member)
      await tx.delete(members).where(eq(members.id, memberId))
      await this.audit.record(tx, by, {
        action: member.userId === by.userId ? 'team.member.left' : 'team.member.removed',
        target: { type: 'team_member', id: memberId },
        organizationId,
        metadata: { userId: member.userId, role: member.role },
      })
    })
  }

  private async teamOf(organizationId: string): Promise<string> {
    const [team] = await this.deps.db.select({ id: teams.id }).from(teams).where(eq(teams.organizationId, organizationId))
    if (!team) throw notFound()
    return team.id
  }

  /** Loads a membership and locks its team row, so owner checks and changes are serialised. */
  private async lockTeamOf(tx: Db, memberId: string) {
    const [found] = await tx.select().from(members).where(eq(members.id, memberId))
    if (!found) throw notFound()
    const [team] = await tx.select().from(teams).where(eq(teams.id, found.teamId)).for('update')
    const [member] = await tx.select().from(members).where(eq(members.id, memberId))
    if (!team || !member) throw notFound()
    return { member, organizationId: team.organizationId }
  }

  private async keepAnOwner(tx: Db, leaving: MemberRow): Promise<void> {
    const [{ n }] = (await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(members)
      .where(and(eq(members.teamId, leaving.teamId), eq(members.role, 'owner')))) as [{ n: number }]
    if (n <= 1) throw lastOwner()
  }

  private async views(rows: MemberRow[], organizationId: string) {
    const profiles = await this.accounts.profiles(rows.map((r) => r.userId))
    return rows.map((r) => ({
      id: r.id,
      organizationId,
      userId: r.userId,
      email: profiles.get(r.userId)?.email ?? '',
      name: profiles.get(r.userId)?.name ?? '',
      mfa: profiles.get(r.userId)?.mfa ?? false,
      role: r.role,
      createdAt: r.createdAt.toISOString(),
    }))
  }
}

/** SQL: the account ids (one column) of the organization's team members, for another area's read (the overview's sign-ins). */
export const memberIdsOf = (organizationId: string) =>
  sql`select ${members.userId} from ${members} inner join ${teams} on ${teams.id} = ${members.teamId} where ${teams.organizationId} = ${organizationId}`
