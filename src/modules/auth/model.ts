import { t } from 'elysia'
import { SLUG_PATTERN } from './accounts'

export { SLUG_PATTERN }

export const Email = t.String({ format: 'email', maxLength: 254, description: 'E-mail address; unique regardless of case' })
const Name = t.String({ minLength: 1, maxLength: 255 })
const Slug = t.String({ pattern: SLUG_PATTERN, description: 'Public login slug' })
export const NewPassword = t.String({ minLength: 8, maxLength: 1024, description: 'At least 8 characters' })

/** The account the request examples sign up (the quick start's first step), as answers show it. */
const USER_EXAMPLE = { id: '6f1c0a3e-2b7d-4c1a-9e5f-3d2b1a0c9e8f', email: 'ada@example.com', name: 'Ada Lovelace', avatarUrl: '', slug: null, capabilities: [] }

export const User = t.Object({
  id: t.String({ format: 'uuid' }),
  email: t.String(),
  name: t.String(),
  avatarUrl: t.String(),
  slug: t.Nullable(t.String()),
  capabilities: t.Array(t.String(), { description: '`admin` for platform administrators' }),
}, { title: 'User', examples: [USER_EXAMPLE] })

export const AuthResult = t.Object({
  token: t.String({ description: 'JWT access token (bearer credential)' }),
  refreshToken: t.String({ description: 'Opaque refresh token, single use, rotated on refresh' }),
  user: User,
}, {
  title: 'AuthResult',
  examples: [{ token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI2ZjFjMGEzZSIsImFhbCI6ImFhbDEifQ.3q2-7w', refreshToken: 'rt_9fK2mQ7xV4pL0sN8cB1yT6hJ3wE5uA', user: USER_EXAMPLE }],
})

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

export const RegisterBody = t.Object(
  { email: Email, password: NewPassword, name: Name },
  { title: 'AuthRegister', examples: [{ email: 'ada@example.com', password: 'correct horse battery staple', name: 'Ada Lovelace' }] },
)
export const LoginBody = t.Object(
  { email: t.String({ minLength: 1, maxLength: 254 }), password: t.String({ minLength: 1, maxLength: 1024 }) },
  { title: 'AuthLogin', examples: [{ email: 'ada@example.com', password: 'correct horse battery staple' }] },
)
export const RefreshBody = t.Optional(
  t.Object({
    refreshToken: t.Optional(
      t.String({ minLength: 1, description: 'The refresh token; browsers may omit it and send the ecobase_refresh cookie' }),
    ),
  }, { title: 'AuthRefresh', examples: [{ refreshToken: 'rt_9fK2mQ7xV4pL0sN8cB1yT6hJ3wE5uA' }] }),
)
export const ProfilePatch = t.Object({ name: t.Optional(Name), slug: t.Optional(Slug) }, { title: 'AuthProfilePatch', examples: [{ name: 'Ada King', slug: 'ada' }], minProperties: 1 })
export const SlugAvailability = t.Object({
  available: t.Boolean(),
  reason: t.Optional(t.Union([t.Literal('format'), t.Literal('taken')])),
}, { title: 'AuthSlugAvailability' })
export const FirstRun = t.Object({
  firstAccount: t.Boolean({ description: 'No account exists yet: the next registration is the instance’s first (it gets the `admin` capability when ADMIN_EMAILS is empty)' }),
  registration: t.Boolean({ description: 'Registration with e-mail and password is enabled' }),
}, { title: 'AuthFirstRun' })
export const ChangePasswordBody = t.Object({ currentPassword: t.String({ minLength: 1, maxLength: 1024 }), newPassword: NewPassword }, { title: 'AuthChangePassword', examples: [{ currentPassword: 'correct horse battery staple', newPassword: 'a longer passphrase for 2027' }] })
export const CreateApiTokenBody = t.Object({
  name: t.String({ minLength: 1, maxLength: 100 }),
  expiresAt: t.Optional(t.String({ format: 'date-time', description: 'ISO 8601; must be in the future' })),
}, { title: 'AuthCreateApiToken', examples: [{ name: 'deploy bot', expiresAt: '2027-01-01T00:00:00.000Z' }] })

export const MfaFactor = t.Object(
  {
    id: t.String(),
    type: t.Union([t.Literal('totp'), t.Literal('passkey')]),
    name: t.String(),
    createdAt: t.String(),
    lastUsedAt: t.Union([t.String(), t.Null()]),
  },
  { title: 'MfaFactor' },
)
export const MfaStatus = t.Object({ enabled: t.Boolean({ description: 'The account has a verified second factor' }), factors: t.Array(MfaFactor) }, { title: 'MfaStatus' })
export const TotpEnrollment = t.Object(
  {
    factorId: t.String(),
    secret: t.String({ description: 'Base32, for typing into an authenticator app (shown only now)' }),
    otpauthUrl: t.String({ description: 'otpauth://totp/… (SHA-1, 6 digits, 30 s)' }),
    qrSvg: t.String({ description: 'The otpauth URL as a QR code, an SVG document' }),
  },
  { title: 'TotpEnrollment' },
)
export const RecoveryCodes = t.Object({ recoveryCodes: t.Array(t.String(), { description: 'Ten single-use codes (`abcd-efgh`), shown only now' }) }, { title: 'RecoveryCodes' })
export const TotpConfirmed = t.Object(
  { factor: MfaFactor, recoveryCodes: t.Optional(t.Array(t.String(), { description: 'With the account’s first factor only: ten single-use codes, shown only now' })) },
  { title: 'TotpConfirmed' },
)
export const MfaVerifyBody = t.Union(
  [
    t.Object({ code: t.String({ pattern: '^[0-9]{6}$', description: 'From an authenticator app' }) }, { additionalProperties: false }),
    t.Object({ recoveryCode: t.String({ maxLength: 20, description: 'One of the ten recovery codes (each works once)' }) }, { additionalProperties: false }),
  ],
  { title: 'MfaVerify', examples: [{ code: '492039' }] },
)
