import { and, desc, eq } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { openSecret, sealSecret } from '../../platform/crypto'
import type { Db } from '../../platform/db'
import { personaError } from './errors'
import type { PrivateAddressPolicy } from '../../platform/ip-ranges'
import { hostRefusal } from '../../platform/outbound'
import { listPage, type PageParams } from '../../platform/paging'
import type { Tenant } from '../../platform/tenancy'
import { type ChatModel, LlmError } from '../../providers/llm'
import { services } from './schema'
import { findTemplate } from './templates'

type ServiceRow = typeof services.$inferSelect

/** Labels the sealed API keys so they cannot be opened as any other kind of secret. */
const KEY_PURPOSE = 'persona-service-api-key'
/** Providers such as OpenRouter list hundreds of models; keep a bounded catalogue. */
const MAX_MODELS = 1000

const notFound = () => personaError(404, 'not_found', 'No such persona service in this ecosystem')

export const serviceView = (s: ServiceRow) => ({
  id: s.id,
  templateId: s.templateId,
  providerKind: s.providerKind,
  name: s.name,
  baseUrl: s.baseUrl,
  hasApiKey: s.apiKeySealed !== null,
  connectStatus: s.connectStatus,
  connectError: s.connectError,
  lastConnectedAt: s.lastConnectedAt?.toISOString() ?? null,
  models: s.models,
  modelsFetchedAt: s.modelsFetchedAt?.toISOString() ?? null,
  documentationUrl: s.documentationUrl,
  statusUrl: s.statusUrl,
  createdAt: s.createdAt.toISOString(),
  updatedAt: s.updatedAt.toISOString(),
})

/**
 * A base URL without credentials or fragment, and without the trailing slash, whose host the
 * outbound gate allows now: an IP address the policy allows, or a name whose addresses all are (a
 * name that does not resolve yet passes; every call resolves and checks it again).
 */
async function normalizeBaseUrl(raw: string, policy: PrivateAddressPolicy): Promise<string> {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw personaError(400, 'invalid_base_url', 'baseUrl is not a valid URL')
  }
  if (url.username || url.password || url.hash) {
    throw personaError(400, 'invalid_base_url', 'baseUrl must not carry credentials or a fragment; send the key as apiKey')
  }
  const refusal = await hostRefusal(url.hostname, policy)
  if (refusal !== null) {
    const reach = policy === 'deny' ? 'a public address' : 'a public or private address (not link-local, cloud metadata or reserved)'
    const which = 'resolved' in refusal && refusal.resolved ? `${url.hostname} resolves to an address that is not one` : `${url.hostname} is not one`
    throw personaError(400, 'base_url_not_allowed', `baseUrl must point at ${reach}; ${which}`)
  }
  return url.toString().replace(/\/+$/, '')
}

/** Persona services: LLM providers an ecosystem configures, with their API keys sealed at rest. */
export class ModelServices {
  constructor(private readonly deps: Pick<Deps, 'config' | 'db' | 'llm' | 'now' | 'secret'>) {}

  async list(tenant: Tenant, page: PageParams) {
    const where = eq(services.ecosystemId, tenant.ecosystemId)
    return listPage(this.deps.db, services, where, [desc(services.createdAt), desc(services.id)], page, serviceView)
  }

  async get(tenant: Tenant, id: string) {
    return serviceView(await this.row(tenant.ecosystemId, id))
  }

  async create(tenant: Tenant, input: { templateId?: string; name?: string; baseUrl?: string; apiKey?: string }) {
    const template = input.templateId === undefined ? undefined : findTemplate(input.templateId)
    if (input.templateId !== undefined && !template) throw personaError(400, 'unknown_template', `No service template "${input.templateId}"`)
    const baseUrl = input.baseUrl ?? template?.baseUrl
    if (!baseUrl) throw personaError(400, 'base_url_required', 'baseUrl is required without a template that has one')
    const [row] = await this.deps.db
      .insert(services)
      .values({
        ecosystemId: tenant.ecosystemId,
        templateId: template?.id ?? null,
        providerKind: template?.providerKind ?? 'openai_compatible',
        name: input.name ?? template?.name ?? 'OpenAI-compatible service',
        baseUrl: await normalizeBaseUrl(baseUrl, this.deps.config.personaServices.privateAddresses),
        apiKeySealed: input.apiKey ? sealSecret(this.deps.secret, KEY_PURPOSE, input.apiKey) : null,
        documentationUrl: template?.documentationUrl ?? null,
        statusUrl: template?.statusUrl ?? null,
        createdBy: tenant.actor.kind === 'user' ? tenant.actor.userId : null,
      })
      .returning()
    return serviceView(row!)
  }

  /** A new base URL or key invalidates the last connection result. */
  async update(tenant: Tenant, id: string, patch: { name?: string; baseUrl?: string; apiKey?: string | null }) {
    const reconnect = patch.baseUrl !== undefined || patch.apiKey !== undefined
    const baseUrl = patch.baseUrl === undefined ? undefined : await normalizeBaseUrl(patch.baseUrl, this.deps.config.personaServices.privateAddresses)
    const [row] = await this.deps.db
      .update(services)
      .set({
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(baseUrl !== undefined ? { baseUrl } : {}),
        ...(patch.apiKey !== undefined ? { apiKeySealed: patch.apiKey === null ? null : sealSecret(this.deps.secret, KEY_PURPOSE, patch.apiKey) } : {}),
        ...(reconnect ? { connectStatus: 'never' as const, connectError: null } : {}),
        updatedAt: this.deps.now(),
      })
      .where(and(eq(services.id, id), eq(services.ecosystemId, tenant.ecosystemId)))
      .returning()
    if (!row) throw notFound()
    return serviceView(row)
  }

  /** Personas on the service fall back to the default service. */
  async remove(tenant: Tenant, id: string): Promise<void> {
    const deleted = await this.deps.db
      .delete(services)
      .where(and(eq(services.id, id), eq(services.ecosystemId, tenant.ecosystemId)))
      .returning({ id: services.id })
    if (!deleted[0]) throw notFound()
  }

  /** Lists the provider's models; the outcome is recorded on the service either way. */
  async connect(tenant: Tenant, id: string) {
    const row = await this.row(tenant.ecosystemId, id)
    const now = this.deps.now()
    let outcome: Partial<typeof services.$inferInsert>
    try {
      const models = await this.clientFor(row).listModels()
      outcome = { connectStatus: 'connected', connectError: null, lastConnectedAt: now, models: models.slice(0, MAX_MODELS), modelsFetchedAt: now }
    } catch (err) {
      if (!(err instanceof LlmError)) throw err
      outcome = { connectStatus: 'failed', connectError: err.message }
    }
    const [updated] = await this.deps.db
      .update(services)
      .set({ ...outcome, updatedAt: now })
      .where(and(eq(services.id, id), eq(services.ecosystemId, tenant.ecosystemId)))
      .returning()
    if (!updated) throw notFound()
    return serviceView(updated)
  }

  /** For chat: a client for one of the ecosystem's services, or null when it is gone. */
  async client(ecosystemId: string, id: string, db?: Db): Promise<ChatModel | null> {
    const row = await this.find(ecosystemId, id, db)
    return row ? this.clientFor(row) : null
  }

  /** Whether the ecosystem has this service (persona writes check the reference). */
  async exists(ecosystemId: string, id: string): Promise<boolean> {
    return Boolean(await this.find(ecosystemId, id))
  }

  private clientFor(row: ServiceRow): ChatModel {
    const apiKey = row.apiKeySealed === null ? null : openSecret(this.deps.secret, KEY_PURPOSE, row.apiKeySealed)
    return this.deps.llm.forService({ baseUrl: row.baseUrl, apiKey })
  }

  private async find(ecosystemId: string, id: string, db: Db = this.deps.db): Promise<ServiceRow | undefined> {
    const [row] = await db
      .select()
      .from(services)
      .where(and(eq(services.id, id), eq(services.ecosystemId, ecosystemId)))
    return row
  }

  private async row(ecosystemId: string, id: string): Promise<ServiceRow> {
    const row = await this.find(ecosystemId, id)
    if (!row) throw notFound()
    return row
  }
}
