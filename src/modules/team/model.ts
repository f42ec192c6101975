import { t } from 'elysia'

export const RoleSchema = t.Union([t.Literal('owner'), t.Literal('admin'), t.Literal('member')], { title: 'TeamRole' })

export const TeamMember = t.Object({
  id: t.String({ description: 'Membership id (used by PATCH/DELETE)' }),
  organizationId: t.String(),
  userId: t.String(),
  email: t.String(),
  name: t.String(),
  role: RoleSchema,
  createdAt: t.String(),
}, { title: 'TeamMember' })
export const MemberAdd = t.Object({
  organizationId: t.String({ format: 'uuid' }),
  email: t.String({ minLength: 3, maxLength: 254 }),
  role: RoleSchema,
}, { title: 'TeamMemberAdd', examples: [{ organizationId: '0b8e4c2a-5d6f-4a1b-8c3d-2e1f0a9b8c7d', email: 'grace@example.com', role: 'admin' }] })
export const MemberPatch = t.Object({ role: RoleSchema }, { title: 'TeamMemberPatch', examples: [{ role: 'member' }] })
