import type { TObject } from '@sinclair/typebox'
import { t } from 'elysia'
import { Timestamp } from '../../platform/crud/model'
import { Int } from '../../platform/numbers'

export const SLUG_PATTERN = '^[a-z0-9][a-z0-9_-]{0,62}$'

export const SiteService = t.Object(
  {
    slug: t.String(),
    kind: t.String(),
    enabled: t.Boolean(),
    configKeys: t.Array(t.String(), { description: 'Names of the configured keys; values, secret or not, are never returned' }),
    updatedAt: Timestamp,
  },
  {
    title: 'SiteService',
    examples: [{ slug: 'mail', kind: 'smtp', enabled: true, configKeys: ['from', 'host', 'pass', 'port', 'user'], updatedAt: '2026-11-26T09:00:00.000Z' }],
  },
)

export const SiteServiceUpsert = t.Object(
  {
    kind: t.String({ minLength: 1, maxLength: 50, description: 'smtp, twilio, openai or webhook' }),
    enabled: t.Boolean(),
    config: t.Record(t.String(), t.Unknown(), { description: 'Provider settings (see the kinds); stored sealed, never returned' }),
  },
  {
    title: 'SiteServiceUpsert',
    examples: [
      { kind: 'smtp', enabled: true, config: { host: 'smtp.example.com', port: 587, user: 'mailer', pass: 'app-password', from: 'Acme <hello@example.com>' } },
    ],
  },
)

/** A header value or address: one line, so no CR/LF can inject a header. */
const OneLine = (description: string) => t.String({ minLength: 1, maxLength: 320, pattern: '^[^\\r\\n]+$', description })
const HttpUrl = t.String({ pattern: '^https?://[^\\s]+$', maxLength: 2000 })

/** Each kind's config; `oneOf` lists key sets of which at least one must be given. */
export const KINDS: Record<string, { schema: TObject; oneOf?: string[][] }> = {
  smtp: {
    schema: t.Object(
      {
        url: t.Optional(t.String({ pattern: '^smtps?://[^\\s]+$', maxLength: 2000 })),
        host: t.Optional(t.String({ minLength: 1, maxLength: 253, pattern: '^[A-Za-z0-9.-]+$' })),
        port: t.Optional(Int({ minimum: 1, maximum: 65535 })),
        secure: t.Optional(t.Boolean()),
        user: t.Optional(t.String({ minLength: 1, maxLength: 320 })),
        pass: t.Optional(t.String({ minLength: 1, maxLength: 1000 })),
        from: t.Optional(OneLine('Sender, e.g. "Acme <no-reply@acme.example>"')),
        dkimDomain: t.Optional(
          t.String({ minLength: 1, maxLength: 253, pattern: '^[A-Za-z0-9.-]+$', description: 'DKIM: the signing domain (d=), usually the sender’s' }),
        ),
        dkimSelector: t.Optional(
          t.String({
            minLength: 1,
            maxLength: 63,
            pattern: '^[A-Za-z0-9._-]+$',
            description: 'DKIM: the selector (s=); the public key is published at <selector>._domainkey.<domain>',
          }),
        ),
        dkimPrivateKey: t.Optional(
          t.String({ minLength: 1, maxLength: 10_000, description: 'DKIM: the PEM private key (RSA or Ed25519); write-only like every setting' }),
        ),
      },
      { additionalProperties: false },
    ),
    oneOf: [['url'], ['host']],
  },
  twilio: {
    schema: t.Object(
      {
        accountSid: t.String({ pattern: '^AC[0-9a-fA-F]{32}$' }),
        authToken: t.String({ minLength: 16, maxLength: 200 }),
        from: t.Optional(t.String({ pattern: '^\\+[1-9][0-9]{6,14}$', description: 'E.164 number' })),
        messagingServiceSid: t.Optional(t.String({ pattern: '^MG[0-9a-fA-F]{32}$' })),
      },
      { additionalProperties: false },
    ),
    oneOf: [['from'], ['messagingServiceSid']],
  },
  openai: {
    schema: t.Object(
      { apiKey: t.String({ minLength: 1, maxLength: 1000 }), baseUrl: t.Optional(HttpUrl), model: t.Optional(t.String({ minLength: 1, maxLength: 200 })) },
      { additionalProperties: false },
    ),
  },
  webhook: {
    schema: t.Object({ url: HttpUrl, secret: t.Optional(t.String({ minLength: 1, maxLength: 1000 })) }, { additionalProperties: false }),
  },
}
