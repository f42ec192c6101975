import { createPrivateKey } from 'node:crypto'
import { requireAal2 } from '../../platform/auth'
import { Value } from '@sinclair/typebox/value'
import { and, asc, eq } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { openSecret, sealSecret } from '../../platform/crypto'
import type { PrivateAddressPolicy } from '../../platform/ip-ranges'
import { assertTenantHost, markChosenBy, smtpServer } from '../../platform/outbound'
import type { Tenant } from '../../platform/tenancy'
import { siteError } from './errors'

import { FeedService } from './feed'
export type { FeedWriter } from './feed'
export { recentActivity } from './feed'
import type { AuditService } from '../audit/service'
import { KINDS } from './model'
import { siteServices } from './schema'

/** Labels sealed site configs so they cannot be opened as any other kind of secret. */
const PURPOSE = 'site-service-config'
type Row = typeof siteServices.$inferSelect

const view = (r: Row) => ({ slug: r.slug, kind: r.kind, enabled: r.enabled, configKeys: r.configKeys, updatedAt: r.updatedAt.toISOString() })
const notFound = (slug: string) => siteError(404, 'not_found', `No site service ${slug}`)

/** What a sender uses: the ecosystem's own enabled service of a kind, else the instance default. */
export interface EffectiveProvider {
  source: 'ecosystem' | 'instance'
  config: Record<string, unknown>
}

/** The site area: an ecosystem's site services (providers) and its customers' activity feed. */
export class SiteService {
  readonly sites: SiteServices
  readonly feed: FeedService

  constructor(deps: Pick<Deps, 'config' | 'database' | 'db' | 'now' | 'secret' | 'shutdown'>, audit: AuditService) {
    this.sites = new SiteServices(deps, audit)
    this.feed = new FeedService(deps)
  }
}

/** Provider settings per ecosystem: validated per kind, sealed with the server key, never shown. */
export class SiteServices {
  constructor(
    private readonly deps: Pick<Deps, 'config' | 'db' | 'now' | 'secret'>,
    private readonly audit: AuditService,
  ) {}

  async list(tenant: Tenant) {
    const rows = await this.deps.db.select().from(siteServices).where(eq(siteServices.ecosystemId, tenant.ecosystemId)).orderBy(asc(siteServices.slug))
    return rows.map(view)
  }

  async get(tenant: Tenant, slug: string) {
    const [row] = await this.deps.db.select().from(siteServices).where(this.key(tenant, slug))
    if (!row) throw notFound(slug)
    return view(row)
  }

  async upsert(tenant: Tenant, slug: string, input: { kind: string; enabled: boolean; config: Record<string, unknown> }) {
    requireAal2(tenant)
    checkConfig(input.kind, input.config)
    await checkHosts(input.kind, input.config, this.deps.config.siteServices.privateAddresses)
    const values = {
      kind: input.kind,
      enabled: input.enabled,
      configSealed: sealSecret(this.deps.secret, PURPOSE, JSON.stringify(input.config)),
      configKeys: Object.keys(input.config).sort(),
      updatedAt: this.deps.now(),
    }
    const row = await this.deps.db.transaction(async (tx) => {
      const [before] = await tx.select().from(siteServices).where(this.key(tenant, slug)).for('update')
      const [row] = await tx
        .insert(siteServices)
        .values({ ecosystemId: tenant.ecosystemId, slug, ...values })
        .onConflictDoUpdate({ target: [siteServices.ecosystemId, siteServices.slug], set: values })
        .returning()
      // The audit event names the keys whose value changed, never a value.
      const changedKeys = before ? this.changedKeys(before, input.config) : values.configKeys
      await this.audit.record(tx, tenant, {
        action: before ? 'site.service.updated' : 'site.service.created',
        target: { type: 'site_service', id: slug },
        metadata: {
          slug,
          kind: input.kind,
          enabled: input.enabled,
          ...(before && before.kind !== input.kind ? { previousKind: before.kind } : {}),
          changedKeys,
        },
      })
      return row!
    })
    return view(row)
  }

  async remove(tenant: Tenant, slug: string): Promise<void> {
    requireAal2(tenant)
    await this.deps.db.transaction(async (tx) => {
      const [deleted] = await tx.delete(siteServices).where(this.key(tenant, slug)).returning({ slug: siteServices.slug, kind: siteServices.kind })
      if (!deleted) throw notFound(slug)
      await this.audit.record(tx, tenant, {
        action: 'site.service.deleted',
        target: { type: 'site_service', id: slug },
        metadata: { slug, kind: deleted.kind },
      })
    })
  }

  /** Names of the config keys added, removed or given another value (compared with the stored config). */
  private changedKeys(before: Row, config: Record<string, unknown>): string[] {
    const old = JSON.parse(openSecret(this.deps.secret, PURPOSE, before.configSealed)) as Record<string, unknown>
    const keys = new Set([...Object.keys(old), ...Object.keys(config)])
    return [...keys].filter((k) => !Object.hasOwn(old, k) || !Object.hasOwn(config, k) || JSON.stringify(old[k]) !== JSON.stringify(config[k])).sort()
  }

  /**
   * The settings a send of `kind` uses for the ecosystem: its own enabled service (first by slug),
   * else SMTP_URL / TWILIO_*; with `null` (the instance's own mail) only the latter.
   */
  async effectiveProvider(ecosystemId: string | null, kind: 'smtp' | 'twilio'): Promise<EffectiveProvider | null> {
    const [row] =
      ecosystemId === null
        ? []
        : await this.deps.db
            .select()
            .from(siteServices)
            .where(and(eq(siteServices.ecosystemId, ecosystemId), eq(siteServices.kind, kind), eq(siteServices.enabled, true)))
            .orderBy(asc(siteServices.slug))
            .limit(1)
    // Marked for the transports: a tenant's server goes through the outbound gate, the operator's does not.
    const policy = this.deps.config.siteServices.privateAddresses
    if (row) return { source: 'ecosystem', config: markChosenBy(JSON.parse(openSecret(this.deps.secret, PURPOSE, row.configSealed)), { by: 'tenant', policy }) }
    const instance = this.deps.config.providers[kind]
    return instance ? { source: 'instance', config: markChosenBy({ ...instance }, { by: 'operator' }) } : null
  }

  private key(tenant: Tenant, slug: string) {
    return and(eq(siteServices.ecosystemId, tenant.ecosystemId), eq(siteServices.slug, slug))
  }
}

/** 400 naming the first bad key; never echoes a value (configs hold secrets). */
function checkConfig(kind: string, config: Record<string, unknown>): void {
  // Own keys only: a kind such as `constructor` must not find Object.prototype's member.
  const spec = Object.hasOwn(KINDS, kind) ? KINDS[kind] : undefined
  if (!spec) throw siteError(400, 'validation_failed', `kind: one of ${Object.keys(KINDS).join(', ')}`)
  const error = Value.Errors(spec.schema, config).First()
  if (error) {
    const key = error.path.replace(/^\//, '').split('/')[0]
    const known = Object.keys(spec.schema.properties)
    const reason = key && !known.includes(key) ? 'not a setting of this kind' : error.message
    throw siteError(400, 'validation_failed', `config${key ? `.${key}` : ''}: ${reason}`)
  }
  if (spec.oneOf && !spec.oneOf.some((keys) => keys.every((k) => config[k] !== undefined))) {
    throw siteError(400, 'validation_failed', `config: give ${spec.oneOf.map((keys) => keys.join(' + ')).join(' or ')}`)
  }
}

/**
 * The servers a config names, through the outbound gate: 400 naming the key when one is (or is a
 * name resolving to) an address tenants may not reach under SITE_SERVICE_PRIVATE_ADDRESSES. A name
 * that does not resolve yet passes; every connection checks it again.
 */
async function checkHosts(kind: string, config: Record<string, unknown>, policy: PrivateAddressPolicy): Promise<void> {
  const check = (key: string, host: string) => assertTenantHost(`config.${key}`, host, policy, 'SITE_SERVICE_PRIVATE_ADDRESSES')
  const urlHost = (key: string) => {
    try {
      return new URL(String(config[key])).hostname
    } catch {
      throw siteError(400, 'validation_failed', `config.${key}: not a URL`)
    }
  }
  if (kind === 'smtp' && config.url !== undefined) {
    if (/[?#]/.test(String(config.url)))
      throw siteError(400, 'validation_failed', 'config.url: query options are not taken; give host, port, secure, user and pass instead')
    const server = smtpServer({ url: config.url })
    if (!server) throw siteError(400, 'validation_failed', 'config.url: not an smtp:// or smtps:// URL')
    await check('url', server.host)
  }
  if (kind === 'smtp' && config.host !== undefined) await check('host', String(config.host))
  if (kind === 'smtp') checkDkim(config)
  if (kind === 'openai' && config.baseUrl !== undefined) await check('baseUrl', urlHost('baseUrl'))
  if (kind === 'webhook') await check('url', urlHost('url'))
}

const DKIM_KEYS = ['dkimDomain', 'dkimSelector', 'dkimPrivateKey'] as const

/** DKIM signing needs all three settings, and a private key that parses. */
function checkDkim(config: Record<string, unknown>): void {
  const given = DKIM_KEYS.filter((key) => config[key] !== undefined)
  if (given.length === 0) return
  if (given.length < DKIM_KEYS.length) throw siteError(400, 'validation_failed', `config: DKIM signing needs ${DKIM_KEYS.join(', ')} together`)
  try {
    createPrivateKey(String(config.dkimPrivateKey))
  } catch {
    throw siteError(400, 'validation_failed', 'config.dkimPrivateKey: not a PEM private key')
  }
}
