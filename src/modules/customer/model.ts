import { t } from 'elysia'

const Email = t.String({ format: 'email', maxLength: 254 })
const Phone = t.String({ pattern: '^\\+?[0-9 ()-]{3,32}$', description: 'Phone number, E.164 preferred' })
const Name = t.String({ minLength: 1, maxLength: 255 })
const AvatarUrl = t.String({ pattern: '^https?://[^\\s]+$', maxLength: 2000, description: 'Picture URL (shown on leaderboards and profiles)' })
const Profile = { email: t.Optional(Email), phone: t.Optional(Phone), name: t.Optional(Name), avatarUrl: t.Optional(AvatarUrl) }
/** A patch's profile: null clears a field. */
const ClearableProfile = {
  email: t.Optional(t.Nullable(Email)),
  phone: t.Optional(t.Nullable(Phone)),
  name: t.Optional(t.Nullable(Name)),
  avatarUrl: t.Optional(t.Nullable(AvatarUrl)),
}
const ExternalId = t.String({ minLength: 1, maxLength: 255, description: 'Your own id for this customer; unique per ecosystem' })

export const CustomerAuthResult = t.Object(
  {
    token: t.String({ description: 'Short-lived JWT, typ `customer`, carrying the ecosystem (`eco`) and customer (`sub`)' }),
    refreshToken: t.String({ description: 'Opaque, single-use, rotated on refresh' }),
    customerId: t.String(),
  },
  {
    title: 'CustomerAuthResult',
    examples: [
      {
        token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6ImN1c3RvbWVyIn0.eyJzdWIiOiI1ZTRkM2MyYiIsImVjbyI6IjlhOGI3YzZkIn0.x7Qe',
        refreshToken: 'crt_4hT8nW2qL6vB0xM3kP9sD1fG7',
        customerId: '5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170',
      },
    ],
  },
)
export const CustomerSupportSession = t.Object(
  {
    token: t.String({ description: 'A customer JWT (`typ` `customer`) for this session only; there is no refresh token' }),
    customerId: t.String(),
    sessionId: t.String({ description: 'The session, to end it early (DELETE /customer/support-sessions/{id})' }),
    expiresAt: t.String({ description: 'When the token and its session end (ISO 8601 UTC)' }),
  },
  {
    title: 'CustomerSupportSession',
    examples: [
      {
        token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6ImN1c3RvbWVyIn0.eyJzdWIiOiI1ZTRkM2MyYiIsImVjbyI6IjlhOGI3YzZkIn0.x7Qe',
        customerId: '5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170',
        sessionId: '0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9',
        expiresAt: '2026-11-26T09:15:00.000Z',
      },
    ],
  },
)
export const CustomerResolveResult = t.Object(
  { customerId: t.String({ description: 'The stable customer id for the external id' }) },
  { title: 'CustomerResolveResult', examples: [{ customerId: '5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170' }] },
)
export const CustomerRegisterResult = t.Object(
  { customerId: t.String({ description: 'The newly provisioned customer id' }) },
  { title: 'CustomerRegisterResult', examples: [{ customerId: '7d6c5b4a-3928-4170-9f6e-5d4c3b2a1908' }] },
)
export const Customer = t.Object(
  {
    id: t.String(),
    ecosystemId: t.String(),
    externalId: t.Nullable(t.String()),
    email: t.Nullable(t.String()),
    phone: t.Nullable(t.String()),
    name: t.Nullable(t.String()),
    avatarUrl: t.Nullable(t.String()),
    createdAt: t.String(),
    updatedAt: t.String(),
  },
  {
    title: 'Customer',
    examples: [
      {
        id: '5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170',
        ecosystemId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
        externalId: 'user-42',
        email: 'grace@example.com',
        phone: null,
        name: 'Grace Hopper',
        avatarUrl: null,
        createdAt: '2026-11-26T09:00:00.000Z',
        updatedAt: '2026-11-26T09:00:00.000Z',
      },
    ],
  },
)

export const ResolveBody = t.Object(
  { externalId: ExternalId, ...Profile },
  { title: 'CustomerResolve', examples: [{ externalId: 'user-42', name: 'Grace Hopper', email: 'grace@example.com' }] },
)
export const RegisterBody = t.Object(
  { externalId: t.Optional(ExternalId), ...Profile },
  { title: 'CustomerRegister', examples: [{ externalId: 'user-43', name: 'Alan Turing', email: 'alan@example.com' }] },
)
export const TokenBody = t.Object(
  { customerId: t.String({ format: 'uuid' }) },
  { title: 'CustomerToken', examples: [{ customerId: '5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170' }] },
)
export const RefreshBody = t.Object(
  { refreshToken: t.String({ minLength: 1 }) },
  { title: 'CustomerRefresh', examples: [{ refreshToken: 'crt_4hT8nW2qL6vB0xM3kP9sD1fG7' }] },
)
export const CustomerPatch = t.Object(
  { externalId: t.Optional(t.Nullable(ExternalId)), ...ClearableProfile },
  {
    title: 'CustomerPatch',
    description: 'The fields to change; null clears one. The customer keeps a name, an e-mail or an external id.',
    examples: [{ name: 'Grace Hopper', email: 'grace@example.com', phone: '+1 555 0100', avatarUrl: null }],
    minProperties: 1,
  },
)
export const CustomerListQuery = t.Object({
  q: t.Optional(t.String({ maxLength: 255, description: 'Matches e-mail, external id or name (case-insensitive substring)' })),
  includeServiceRecords: t.Optional(
    t.Boolean({ description: 'Also the records the service keeps for itself (team members’ own `user:`, alert contacts’ `alert:`), hidden by default' }),
  ),
})
