import { t } from 'elysia'
import { SLUG_PATTERN } from './accounts'
import { Int } from '../../platform/numbers'

export { SLUG_PATTERN }

export const Email = t.String({ format: 'email', maxLength: 254, description: 'E-mail address; unique regardless of case' })
const Name = t.String({ minLength: 1, maxLength: 255 })
const Slug = t.String({ pattern: SLUG_PATTERN, description: 'Public login slug' })
export const NewPassword = t.String({ minLength: 8, maxLength: 1024, description: 'At least 8 characters' })

/** The account the request examples sign up (the quick start's first step), as answers show it. */
const USER_EXAMPLE_IDENTITY = { id: '6f1c0a3e-2b7d-4c1a-9e5f-3d2b1a0c9e8f', email: 'ada@example.com', name: 'Ada Lovelace' }
const USER_EXAMPLE = { ...USER_EXAMPLE_IDENTITY, avatarUrl: '', slug: null, capabilities: [] }

export const User = t.Object(
  {
    id: t.String({ format: 'uuid' }),
    email: t.String(),
    name: t.String(),
    avatarUrl: t.String(),
    slug: t.Nullable(t.String()),
    capabilities: t.Array(t.String(), { description: '`admin` for platform administrators' }),
  },
  { title: 'User', examples: [USER_EXAMPLE] },
)

export const AuthResult = t.Object(
  {
    token: t.String({ description: 'JWT access token (bearer credential)' }),
    refreshToken: t.String({ description: 'Opaque refresh token, single use, rotated on refresh' }),
    user: User,
  },
  {
    title: 'AuthResult',
    examples: [
      {
        token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI2ZjFjMGEzZSIsImFhbCI6ImFhbDEifQ.3q2-7w',
        refreshToken: 'rt_9fK2mQ7xV4pL0sN8cB1yT6hJ3wE5uA',
        user: USER_EXAMPLE,
      },
    ],
  },
)

export const RefreshResult = t.Object(
  { token: t.String(), refreshToken: t.String() },
  {
    title: 'RefreshResult',
    examples: [
      { token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI2ZjFjMGEzZSIsImFhbCI6ImFhbDEifQ.8Rk1-zQ', refreshToken: 'rt_2bN7xK4qW9mL1vC6pT3hY8sE5jA0uF' },
    ],
  },
)

const API_TOKEN_EXAMPLE = {
  id: '2c1b0a9f-8e7d-4c6b-a5f4-e3d2c1b0a9f8',
  name: 'deploy bot',
  prefix: 'eco_Zm9vYmFy',
  createdAt: '2026-11-26T09:00:00.000Z',
  expiresAt: '2027-01-01T00:00:00.000Z',
  lastUsedAt: null,
}

export const ApiToken = t.Object(
  {
    id: t.String({ format: 'uuid' }),
    name: t.String(),
    prefix: t.String({ description: 'Non-secret leading characters of the token, for display' }),
    createdAt: t.String(),
    expiresAt: t.Nullable(t.String()),
    lastUsedAt: t.Nullable(t.String()),
  },
  { title: 'ApiToken', examples: [API_TOKEN_EXAMPLE] },
)

export const ApiTokenCreated = t.Composite([ApiToken, t.Object({ token: t.String({ description: 'The raw token; returned exactly once' }) })], {
  title: 'ApiTokenCreated',
  examples: [{ ...API_TOKEN_EXAMPLE, token: 'eco_Zm9vYmFyLWV4YW1wbGUtdG9rZW4tbm90LXJlYWwtMDE' }],
})

export const AUTH_METHOD_EXAMPLE = {
  id: '7e6d5c4b-3a29-4f18-8e07-d6c5b4a39281',
  userId: '6f1c0a3e-2b7d-4c1a-9e5f-3d2b1a0c9e8f',
  provider: 'password',
  providerId: 'ada@example.com',
  hasCredential: true,
  createdAt: '2026-11-26T09:00:00.000Z',
  updatedAt: '2026-11-26T09:00:00.000Z',
}

export const AuthUserMethod = t.Object(
  {
    id: t.String(),
    userId: t.String(),
    provider: t.String(),
    providerId: t.Nullable(t.String()),
    hasCredential: t.Boolean(),
    createdAt: t.String(),
    updatedAt: t.String(),
  },
  { title: 'AuthUserMethod', examples: [AUTH_METHOD_EXAMPLE] },
)

export const RegisterBody = t.Object(
  { email: Email, password: NewPassword, name: Name },
  { title: 'AuthRegister', examples: [{ email: 'ada@example.com', password: 'correct horse battery staple', name: 'Ada Lovelace' }] },
)
export const LoginBody = t.Object(
  { email: t.String({ minLength: 1, maxLength: 254 }), password: t.String({ minLength: 1, maxLength: 1024 }) },
  { title: 'AuthLogin', examples: [{ email: 'ada@example.com', password: 'correct horse battery staple' }] },
)
export const RefreshBody = t.Optional(
  t.Object(
    {
      refreshToken: t.Optional(t.String({ minLength: 1, description: 'The refresh token; browsers may omit it and send the ecobase_refresh cookie' })),
    },
    { title: 'AuthRefresh', examples: [{ refreshToken: 'rt_9fK2mQ7xV4pL0sN8cB1yT6hJ3wE5uA' }] },
  ),
)
export const ProfilePatch = t.Object(
  { name: t.Optional(Name), slug: t.Optional(Slug) },
  { title: 'AuthProfilePatch', examples: [{ name: 'Ada King', slug: 'ada' }], minProperties: 1 },
)
export const SlugAvailability = t.Object(
  {
    available: t.Boolean(),
    reason: t.Optional(t.Union([t.Literal('format'), t.Literal('taken')])),
  },
  { title: 'AuthSlugAvailability', examples: [{ available: true }] },
)
export const FirstRun = t.Object(
  {
    firstAccount: t.Boolean({
      description: 'No account exists yet: the next registration is the instance’s first (it gets the `admin` capability when ADMIN_EMAILS is empty)',
    }),
    registration: t.Boolean({ description: 'Registration with e-mail and password is enabled' }),
  },
  { title: 'AuthFirstRun', examples: [{ firstAccount: false, registration: true }] },
)
export const ChangePasswordBody = t.Object(
  { currentPassword: t.String({ minLength: 1, maxLength: 1024 }), newPassword: NewPassword },
  { title: 'AuthChangePassword', examples: [{ currentPassword: 'correct horse battery staple', newPassword: 'a longer passphrase for 2027' }] },
)
export const CreateApiTokenBody = t.Object(
  {
    name: t.String({ minLength: 1, maxLength: 100 }),
    expiresAt: t.Optional(t.String({ format: 'date-time', description: 'ISO 8601; must be in the future' })),
  },
  { title: 'AuthCreateApiToken', examples: [{ name: 'deploy bot', expiresAt: '2027-01-01T00:00:00.000Z' }] },
)

export const MFA_FACTOR_EXAMPLE = {
  id: '1d0c9b8a-7f6e-4d5c-b4a3-928170f6e5d4',
  type: 'totp',
  name: 'Phone',
  createdAt: '2026-11-26T09:00:00.000Z',
  lastUsedAt: '2026-11-26T09:01:00.000Z',
}
/** Ten codes as `Mfa` makes them: base32, lower case, `abcd-efgh`. */
const RECOVERY_CODES_EXAMPLE = [
  'k7qm-2xvp',
  'a3nf-8rtd',
  'w5hc-6jlb',
  'p2ye-4kzs',
  'm7ug-3qca',
  'd6tx-5nwr',
  'f4bj-7hme',
  'z2lq-6vyk',
  'r3cs-8pag',
  'h5wn-2dxt',
]

export const MfaFactor = t.Object(
  {
    id: t.String(),
    type: t.Union([t.Literal('totp'), t.Literal('passkey')]),
    name: t.String(),
    createdAt: t.String(),
    lastUsedAt: t.Union([t.String(), t.Null()]),
  },
  { title: 'MfaFactor', examples: [MFA_FACTOR_EXAMPLE] },
)
export const MfaStatus = t.Object(
  { enabled: t.Boolean({ description: 'The account has a verified second factor' }), factors: t.Array(MfaFactor) },
  { title: 'MfaStatus', examples: [{ enabled: false, factors: [] }] },
)
export const UserSelf = t.Composite(
  [
    User,
    t.Object({
      emailVerified: t.Boolean({ description: 'The owner of the address proved it (verification or password reset)' }),
      aal: t.Union([t.Literal('aal1'), t.Literal('aal2')], {
        description: 'The assurance of this credential: `aal2` once a second factor was verified in the session (an API token counts as aal2)',
      }),
      mfa: MfaStatus,
    }),
  ],
  { title: 'UserSelf', examples: [{ ...USER_EXAMPLE, emailVerified: true, aal: 'aal1', mfa: { enabled: false, factors: [] } }] },
)
export const TotpEnrollment = t.Object(
  {
    factorId: t.String(),
    secret: t.String({ description: 'Base32, for typing into an authenticator app (shown only now)' }),
    otpauthUrl: t.String({ description: 'otpauth://totp/… (SHA-1, 6 digits, 30 s)' }),
    qrSvg: t.String({ description: 'The otpauth URL as a QR code, an SVG document' }),
  },
  {
    title: 'TotpEnrollment',
    examples: [
      {
        factorId: '1d0c9b8a-7f6e-4d5c-b4a3-928170f6e5d4',
        secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
        otpauthUrl: 'otpauth://totp/Ecobase%3Aada%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Ecobase&algorithm=SHA1&digits=6&period=30',
        qrSvg:
          '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 51 51" shape-rendering="crispEdges"><path fill="#ffffff" d="M0 0h51v51H0z"/><path stroke="#000000" d="M1 1.5h7m1 0h1m1 0h3m1 0h2…"/></svg>',
      },
    ],
  },
)
export const RecoveryCodes = t.Object(
  { recoveryCodes: t.Array(t.String(), { description: 'Ten single-use codes (`abcd-efgh`), shown only now' }) },
  { title: 'RecoveryCodes', examples: [{ recoveryCodes: RECOVERY_CODES_EXAMPLE }] },
)
export const TotpConfirmed = t.Object(
  {
    factor: MfaFactor,
    recoveryCodes: t.Optional(t.Array(t.String(), { description: 'With the account’s first factor only: ten single-use codes, shown only now' })),
  },
  { title: 'TotpConfirmed', examples: [{ factor: MFA_FACTOR_EXAMPLE, recoveryCodes: RECOVERY_CODES_EXAMPLE }] },
)
/** As TotpConfirmed, for a passkey: shown here as an account's second factor, so without recovery codes. */
export const PasskeyRegistered = t.Object(TotpConfirmed.properties, {
  title: 'PasskeyRegistered',
  examples: [{ factor: { ...MFA_FACTOR_EXAMPLE, id: '8c7b6a59-4e3d-4c2b-a190-f8e7d6c5b4a3', type: 'passkey', name: 'MacBook Touch ID', lastUsedAt: null } }],
})
export const CredentialResponse = t.Object(
  { id: t.String({ maxLength: 2000 }), rawId: t.String({ maxLength: 2000 }), type: t.Literal('public-key'), response: t.Record(t.String(), t.Unknown()) },
  { additionalProperties: true, title: 'WebAuthnCredentialResponse', description: 'What the browser’s WebAuthn call answered, as JSON (base64url buffers)' },
)
export const MfaVerifyBody = t.Union(
  [
    t.Object({ code: t.String({ pattern: '^[0-9]{6}$', description: 'From an authenticator app' }) }, { additionalProperties: false }),
    t.Object({ recoveryCode: t.String({ maxLength: 20, description: 'One of the ten recovery codes (each works once)' }) }, { additionalProperties: false }),
    t.Object(
      { passkey: CredentialResponse },
      { additionalProperties: false, description: 'The answer of `navigator.credentials.get()` to the options of POST /auth/mfa/verify/options' },
    ),
  ],
  { title: 'MfaVerify', examples: [{ code: '492039' }] },
)

export const AdminUserQuery = t.Object({
  q: t.Optional(t.String({ maxLength: 255, description: 'Matches e-mail or name (case-insensitive substring)' })),
})
export const AdminUser = t.Object(
  {
    id: t.String({ format: 'uuid' }),
    email: t.String(),
    name: t.String(),
    createdAt: t.String(),
    platformAdmin: t.Boolean({ description: 'The account holds the `admin` capability (marked admin, or named in ADMIN_EMAILS)' }),
    secondFactor: t.Object(
      {
        verified: t.Boolean({ description: 'The account has a verified second factor: a password sign-in must verify it' }),
        methods: t.Array(t.Union([t.Literal('totp'), t.Literal('passkey')]), {
          description: 'The kinds of its verified factors: `totp` (an authenticator app), `passkey`',
        }),
        recoveryCodesLeft: Int({ description: 'Recovery codes not used yet (0–10; none without a factor)' }),
      },
      { title: 'AdminUserSecondFactor' },
    ),
    lastSignInAt: t.Nullable(
      t.String({ description: 'When its newest session on record began (sign-in by password, second factor or passkey); null: none on record' }),
    ),
  },
  {
    title: 'AdminUser',
    examples: [
      {
        ...USER_EXAMPLE_IDENTITY,
        createdAt: '2026-11-26T09:00:00.000Z',
        platformAdmin: false,
        secondFactor: { verified: true, methods: ['totp'], recoveryCodesLeft: 9 },
        lastSignInAt: '2026-11-28T08:15:00.000Z',
      },
    ],
  },
)
