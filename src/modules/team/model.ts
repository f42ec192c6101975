import { t } from 'elysia'

export const RoleSchema = t.Union([t.Literal('owner'), t.Literal('admin'), t.Literal('member')], { title: 'TeamRole' })

export const TeamMember = t.Object(
  {
    id: t.String({ description: 'Membership id (used by PATCH/DELETE)' }),
    organizationId: t.String(),
    userId: t.String(),
    email: t.String(),
    name: t.String(),
    mfa: t.Boolean({
      description: 'The member’s account has a verified second factor (an authenticator app or a passkey): what an organization’s `requireMfa` asks of it',
    }),
    role: RoleSchema,
    createdAt: t.String(),
  },
  {
    title: 'TeamMember',
    examples: [
      {
        id: 'e5d4c3b2-a190-4f8e-9d7c-6b5a4f3e2d1c',
        organizationId: '0b8e4c2a-5d6f-4a1b-8c3d-2e1f0a9b8c7d',
        userId: '6f1c0a3e-2b7d-4c1a-9e5f-3d2b1a0c9e8f',
        email: 'ada@example.com',
        name: 'Ada Lovelace',
        mfa: true,
        role: 'owner',
        createdAt: '2026-11-26T09:00:00.000Z',
      },
    ],
  },
)
export const MemberAdd = t.Object(
  {
    organizationId: t.String({ format: 'uuid' }),
    email: t.String({ minLength: 3, maxLength: 254 }),
    role: RoleSchema,
  },
  { title: 'TeamMemberAdd', examples: [{ organizationId: '0b8e4c2a-5d6f-4a1b-8c3d-2e1f0a9b8c7d', email: 'grace@example.com', role: 'admin' }] },
)
export const MemberPatch = t.Object({ role: RoleSchema }, { title: 'TeamMemberPatch', examples: [{ role: 'member' }] })
