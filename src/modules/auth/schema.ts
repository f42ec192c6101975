import { bigint, boolean, index, jsonb, pgSchema, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { sessionTables } from '../../platform/sessions'

export const authSchema = pgSchema('auth')

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow()
const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow()

export const users = authSchema.table(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    /** lower(email): the unique, case-insensitive login key. */
    emailKey: text('email_key').notNull(),
    name: text('name').notNull(),
    avatarUrl: text('avatar_url').notNull().default(''),
    slug: text('slug'),
    isAdmin: boolean('is_admin').notNull().default(false),
    /** When the owner of `email` proved it (verification or password reset); null = not yet. */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('users_email_key_uq').on(t.emailKey), uniqueIndex('users_slug_uq').on(t.slug)],
)

/** How a user can sign in; `password` rows carry the argon2id hash. */
export const userMethods = authSchema.table(
  'user_methods',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    providerId: text('provider_id'),
    passwordHash: text('password_hash'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('user_methods_user_provider_uq').on(t.userId, t.provider)],
)

/** Account sessions and their rotating refresh tokens (see platform/sessions). */
export const { sessions, refreshTokens } = sessionTables(authSchema, { name: 'user', references: () => users.id })

export const apiTokens = authSchema.table(
  'api_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('api_tokens_hash_uq').on(t.tokenHash), index('api_tokens_user_idx').on(t.userId)],
)

/** Single-use tokens sent by e-mail (password reset, address verification); only their hash is kept. */
export const emailTokens = authSchema.table(
  'email_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['password_reset', 'verify_email'] }).notNull(),
    /** The address the token was sent to: verification holds only while the account still has it. */
    emailKey: text('email_key').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [index('email_tokens_user_idx').on(t.userId)],
)

/** Second factors of an account: TOTP secrets (sealed) and passkeys; unverified until confirmed. */
export const mfaFactors = authSchema.table(
  'mfa_factors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').$type<'totp' | 'passkey'>().notNull(),
    name: text('name').notNull(),
    secretSealed: text('secret_sealed'),
    /** The last TOTP time step accepted: a code of it or an earlier one is refused (no replays). */
    lastStep: bigint('last_step', { mode: 'number' }),
    verifiedAt: timestamp('verified_at', { withTimezone: true, mode: 'date' }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [index('mfa_factors_user_idx').on(t.userId)],
)

/** One-time recovery codes (hashed), ten per account, replaced as a set. */
export const recoveryCodes = authSchema.table(
  'recovery_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId)],
)

/** The WebAuthn credential of a `passkey` factor. */
export const passkeys = authSchema.table(
  'passkeys',
  {
    factorId: uuid('factor_id')
      .primaryKey()
      .references(() => mfaFactors.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    credentialId: text('credential_id').notNull(),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    /** The authenticator's signature counter: a later assertion must carry a larger one (or both stay 0). */
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
  },
  (t) => [uniqueIndex('passkeys_credential_uq').on(t.credentialId)],
)

/** WebAuthn challenges handed out with options, spent once (by any replica) within five minutes. */
export const webauthnChallenges = authSchema.table('webauthn_challenges', {
  challenge: text('challenge').primaryKey(),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
  purpose: text('purpose').$type<'register' | 'login' | 'verify'>().notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
})

/**
 * Wrong second-factor answers (a code, a recovery code, a passkey), one row each, per account: the
 * throttle counts those of the last LOGIN_FAILURE_WINDOW_SECONDS (a sliding window, whichever
 * session gave them; a success does not erase them). `opensNotice` marks the first of a window whose
 * "account security" e-mail, sent as the window closes, counts them. Purged after a day.
 */
export const mfaFailures = authSchema.table(
  'mfa_failures',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    opensNotice: boolean('opens_notice').notNull().default(false),
  },
  (t) => [index('mfa_failures_user_at_idx').on(t.userId, t.at)],
)
