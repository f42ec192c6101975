import { sql } from 'drizzle-orm'
import { index, pgSchema, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { users } from '../auth/schema'

export const oauthSchema = pgSchema('oauth')

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

/** Third-party client applications, registered by an account user (the owner). */
export const oauthClients = oauthSchema.table(
  'clients',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The public OAuth `client_id`. */
    clientId: text('client_id').notNull(),
    secretHash: text('secret_hash').notNull(),
    name: text('name').notNull(),
    redirectUris: text('redirect_uris').array().notNull(),
    /** The scopes this client may ask for. */
    scopes: text('scopes').array().notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('clients_client_id_uq').on(t.clientId), index('clients_owner_idx').on(t.ownerId)],
)

/**
 * One user's authorization of one client: what the user sees and revokes. Every token pair issued
 * from one authorization code belongs to one grant; revoking it ends them all.
 */
export const oauthGrants = oauthSchema.table(
  'grants',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => oauthClients.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    scopes: text('scopes').array().notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    /** Sliding: each refresh moves it OAUTH_REFRESH_TOKEN_TTL_SECONDS ahead. */
    expiresAt: at('expires_at').notNull(),
    lastUsedAt: at('last_used_at'),
    revokedAt: at('revoked_at'),
    revokedReason: text('revoked_reason'),
  },
  (t) => [index('grants_user_idx').on(t.userId).where(sql`${t.revokedAt} is null`), index('grants_client_idx').on(t.clientId)],
)

/** Authorization codes, stored hashed; `used_at` makes them single-use, `grant_id` finds what a replay must revoke. */
export const oauthCodes = oauthSchema.table(
  'codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    codeHash: text('code_hash').notNull(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => oauthClients.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    redirectUri: text('redirect_uri').notNull(),
    scopes: text('scopes').array().notNull(),
    /** PKCE S256 challenge: BASE64URL(SHA-256(code_verifier)). */
    codeChallenge: text('code_challenge').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    grantId: uuid('grant_id').references(() => oauthGrants.id, { onDelete: 'set null' }),
  },
  (t) => [uniqueIndex('codes_hash_uq').on(t.codeHash), index('codes_expires_idx').on(t.expiresAt)],
)

/** Every refresh token a grant was issued; a used one presented again is a replay. */
export const oauthRefreshTokens = oauthSchema.table(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    grantId: uuid('grant_id')
      .notNull()
      .references(() => oauthGrants.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    usedAt: at('used_at'),
  },
  (t) => [uniqueIndex('oauth_refresh_tokens_hash_uq').on(t.tokenHash), index('oauth_refresh_tokens_grant_idx').on(t.grantId)],
)
