import { t } from 'elysia'
import { SLUG_PATTERN } from './accounts'

export { SLUG_PATTERN }

export const Email = t.String({ format: 'email', maxLength: 254, description: 'E-mail address; unique regardless of case' })
const Name = t.String({ minLength: 1, maxLength: 255 })
const Slug = t.String({ pattern: SLUG_PATTERN, description: 'Public login slug' })
export const NewPassword = t.String({ minLength: 8, maxLength: 1024, description: 'At least 8 characters' })

export const User = t.Object({
  id: t.String({ format: 'uuid' }),
  email: t.String(),
  name: t.String(),
  avatarUrl: t.String(),
  slug: t.Nullable(t.String()),
  capabilities: t.Array(t.String(), { description: '`admin` for platform administrators' }),
}, { title: 'User' })

export const AuthResult = t.Object({
  token: t.String({ description: 'JWT access token (bearer credential)' }),
  refreshToken: t.String({ description: 'Opaque refresh token, single use, rotated on refresh' }),
  user: User,
}, { title: 'AuthResult' })

export const RefreshResult = t.Object({ token: t.String(), refreshToken: t.String() }, { title: 'RefreshResult' })

export const ApiToken = t.Object({
  id: t.String({ format: 'uuid' }),
  name: t.String(),
  prefix: t.String({ description: 'Non-secret leading characters of the token, for display' }),
  createdAt: t.String(),
  expiresAt: t.Nullable(t.String()),
  lastUsedAt: t.Nullable(t.String()),
}, { title: 'ApiToken' })

export const ApiTokenCreated = t.Composite([
  ApiToken,
  t.Object({ token: t.String({ description: 'The raw token; returned exactly once' }) }),
], { title: 'ApiTokenCreated' })

export const AuthUserMethod = t.Object({
  id: t.String(),
  userId: t.String(),
  provider: t.String(),
  providerId: t.Nullable(t.String()),
  hasCredential: t.Boolean(),
  createdAt: t.String(),
  updatedAt: t.String(),
}, { title: 'AuthUserMethod' })

export const RegisterBody = t.Object({ email: Email, password: NewPassword, name: Name }, { title: 'AuthRegister' })
export const LoginBody = t.Object({ email: t.String({ minLength: 1, maxLength: 254 }), password: t.String({ minLength: 1, maxLength: 1024 }) }, { title: 'AuthLogin' })
export const RefreshBody = t.Optional(
  t.Object({
    refreshToken: t.Optional(
      t.String({ minLength: 1, description: 'The refresh token; browsers may omit it and send the ecobase_refresh cookie' }),
    ),
  }, { title: 'AuthRefresh' }),
)
export const ProfilePatch = t.Object({ name: t.Optional(Name), slug: t.Optional(Slug) }, { title: 'AuthProfilePatch', minProperties: 1 })
export const SlugAvailability = t.Object({
  available: t.Boolean(),
  reason: t.Optional(t.Union([t.Literal('format'), t.Literal('taken')])),
}, { title: 'AuthSlugAvailability' })
export const ChangePasswordBody = t.Object({ currentPassword: t.String({ minLength: 1, maxLength: 1024 }), newPassword: NewPassword }, { title: 'AuthChangePassword' })
export const CreateApiTokenBody = t.Object({
  name: t.String({ minLength: 1, maxLength: 100 }),
  expiresAt: t.Optional(t.String({ format: 'date-time', description: 'ISO 8601; must be in the future' })),
}, { title: 'AuthCreateApiToken' })
