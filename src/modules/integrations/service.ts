import { createHmac, randomBytes } from 'node:crypto'
import { requireAal2 } from '../../platform/auth'
import { and, asc, desc, eq, sql, gte } from 'drizzle-orm'
import { countPerDay } from '../../platform/db/daily'
import type { Deps } from '../../deps'
import { defineQueueHandler, type QueueHandler } from '../../platform/queue'
import { openSecret, sealSecret } from '../../platform/crypto'
import type { Db } from '../../platform/db'
import type { Metrics } from '../../platform/metrics'
import { hostAddress } from '../../platform/ip-ranges'
import { assertTenantHost, guardedFetch, OutboundRefused, tenantUrl } from '../../platform/outbound'
import { listPage, type PageParams } from '../../platform/paging'
import type { Tenant } from '../../platform/tenancy'
import type { EventBus, EventDefinition, EventEnvelope } from '../../platform/events'
import { webhookDisabled } from './events'
import { TEST_EVENT } from './model'
import { type AuditService, systemActor } from '../audit/service'
import { deliveries, deliveryAttempts, webhooks } from './schema'
import { integrationsError } from './errors'

const PURPOSE = 'webhook-secret'
const JOB = 'webhook-deliver'
/** 13 attempts, backoff from WEBHOOK_RETRY_SECONDS (1 min) doubling to at most 6 h: about 26 hours in all. */
export const MAX_ATTEMPTS = 13
const MAX_RETRY_DELAY_SECONDS = 6 * 3600
/** An endpoint whose deliveries have all failed this long is disabled. */
const DISABLE_AFTER_MS = 3 * 24 * 3600 * 1000
const ROTATION_GRACE_MS = 24 * 3600 * 1000

type Webhook = typeof webhooks.$inferSelect
/** What one attempt came to: the receiver's status, how long it took, why it failed, the start of its answer. */
interface Outcome {
  ok: boolean
  code?: number
  error?: string
  latencyMs?: number
  body?: string
}
/** How much of a receiver's answer each attempt keeps. */
const RESPONSE_BODY_BYTES = 1024

/** The first `limit` bytes of a response body as text (a cut character is dropped); the rest is never read. */
async function firstBytes(res: Response, limit: number): Promise<string> {
  const reader = res.body?.getReader()
  if (!reader) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    while (size < limit) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
      size += value.byteLength
    }
  } finally {
    await reader.cancel().catch(() => {})
  }
  const bytes = Buffer.concat(chunks).subarray(0, limit)
  return new TextDecoder('utf-8', { fatal: false })
    .decode(bytes)
    .replace(/\uFFFD$/, '')
    .replaceAll('\u0000', '')
}
type Delivery = typeof deliveries.$inferSelect

const webhookView = (w: Webhook) => ({
  id: w.id,
  url: w.url,
  events: w.events,
  enabled: w.enabled,
  description: w.description,
  disabledReason: w.disabledReason,
  createdAt: w.createdAt.toISOString(),
  updatedAt: w.updatedAt.toISOString(),
})
const deliveryView = (d: Delivery) => ({
  id: d.id,
  webhookId: d.webhookId,
  eventType: d.eventType,
  status: d.status,
  attempts: d.attempts,
  responseCode: d.responseCode,
  latencyMs: d.latencyMs,
  lastError: d.lastError,
  createdAt: d.createdAt.toISOString(),
  updatedAt: d.updatedAt.toISOString(),
})
const notFound = () => integrationsError(404, 'not_found', 'No such webhook in this ecosystem')
/** What an audit event says of an endpoint: its host, never the URL (paths and queries of receivers often carry a token). */
const webhookFacts = (w: Webhook) => ({ host: new URL(w.url).host, events: w.events, enabled: w.enabled })
const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`

/** Standard Webhooks signature: base64 HMAC-SHA256 of `id.timestamp.body` keyed by the secret's base64 part. */
export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64')
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`
}

export interface WebhookInput {
  url: string
  events: string[]
  enabled?: boolean
  description?: string
}

/**
 * Outbound webhooks (Standard Webhooks): endpoints per ecosystem, events enqueued as deliveries in
 * the transaction of the change, sent by queue jobs with signatures, retried with backoff for
 * about a day, then failed; an endpoint failing for days is disabled.
 */
export class IntegrationsService {
  private readonly fetch: ReturnType<typeof guardedFetch>
  private readonly attempts: ReturnType<Metrics['counter']>

  constructor(
    private readonly deps: Pick<Deps, 'config' | 'db' | 'logger' | 'now' | 'queue' | 'secret' | 'metrics'>,
    /** The types endpoints may subscribe to. */
    private readonly types: readonly string[],
    private readonly events: Pick<EventBus, 'emit'>,
    private readonly audit: AuditService,
  ) {
    const { privateAddresses } = deps.config.webhooks
    this.fetch = guardedFetch(privateAddresses, { kind: 'webhook', meter: deps.metrics })
    this.attempts = deps.metrics.counter({
      name: 'ecobase_webhook_deliveries_total',
      help: 'Webhook delivery attempts, by outcome: delivered (2xx), rejected (another status), failed (no answer, address refused, endpoint disabled)',
      labelNames: ['outcome'],
    })
  }

  /** The queue job that makes delivery attempts (the module's manifest registers it). */
  queueHandlers(): QueueHandler[] {
    return [
      defineQueueHandler<{ deliveryId: string }>({
        name: JOB,
        handle: (job) => this.deliver(job.deliveryId),
        // A receiver that takes its 10 s holds up neither the rest of its batch nor the other workers.
        parallel: true,
        concurrency: 4,
        // The queue's own retries are for a worker that died or got stuck mid-delivery: soon, and
        // limited. A receiver's refusal is retried by deliver() itself, with the backoff below.
        options: { retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: this.deps.config.webhooks.timeoutSeconds + 60 },
      }),
    ]
  }

  async list(tenant: Tenant, page: PageParams) {
    return listPage(this.deps.db, webhooks, eq(webhooks.ecosystemId, tenant.ecosystemId), [asc(webhooks.createdAt), asc(webhooks.id)], page, webhookView)
  }

  async get(tenant: Tenant, id: string) {
    return webhookView(await this.webhook(tenant, id))
  }

  /** Creates an endpoint; the signing secret is in this answer only. */
  async create(tenant: Tenant, input: WebhookInput) {
    await this.checkUrl(input.url)
    const secret = newSecret()
    const values = {
      ecosystemId: tenant.ecosystemId,
      url: input.url,
      events: this.checkEvents(input.events),
      enabled: input.enabled ?? true,
      description: input.description ?? '',
      secretSealed: sealSecret(this.deps.secret, PURPOSE, secret),
    }
    const row = await this.deps.db.transaction(async (tx) => {
      const [row] = await tx.insert(webhooks).values(values).returning()
      await this.audit.record(tx, tenant, { action: 'integrations.webhook.created', target: { type: 'webhook', id: row!.id }, metadata: webhookFacts(row!) })
      return row!
    })
    return { ...webhookView(row), secret }
  }

  async update(tenant: Tenant, id: string, patch: Partial<WebhookInput>) {
    if (patch.url !== undefined) await this.checkUrl(patch.url)
    const set = {
      ...patch,
      ...(patch.events ? { events: this.checkEvents(patch.events) } : {}),
      // Turning an endpoint back on gives it a fresh start.
      ...(patch.enabled ? { disabledReason: null, failingSince: null } : {}),
      updatedAt: this.deps.now(),
    }
    const row = await this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .update(webhooks)
        .set(set)
        .where(and(eq(webhooks.ecosystemId, tenant.ecosystemId), eq(webhooks.id, id)))
        .returning()
      if (!row) throw notFound()
      await this.audit.record(tx, tenant, {
        action: 'integrations.webhook.updated',
        target: { type: 'webhook', id },
        metadata: { ...webhookFacts(row), changed: Object.keys(patch).sort() },
      })
      return row
    })
    return webhookView(row)
  }

  async remove(tenant: Tenant, id: string) {
    await this.deps.db.transaction(async (tx) => {
      const [gone] = await tx
        .delete(webhooks)
        .where(and(eq(webhooks.ecosystemId, tenant.ecosystemId), eq(webhooks.id, id)))
        .returning()
      if (!gone) throw notFound()
      await this.audit.record(tx, tenant, { action: 'integrations.webhook.deleted', target: { type: 'webhook', id }, metadata: webhookFacts(gone) })
    })
  }

  /** A new secret, in this answer only; the old one keeps signing for 24 h so receivers can switch. */
  async rotate(tenant: Tenant, id: string) {
    requireAal2(tenant)
    const secret = newSecret()
    const row = await this.deps.db.transaction(async (tx) => {
      const current = await this.webhook(tenant, id, tx, true)
      const [row] = await tx
        .update(webhooks)
        .set({
          secretSealed: sealSecret(this.deps.secret, PURPOSE, secret),
          previousSecretSealed: current.secretSealed,
          previousExpiresAt: new Date(this.deps.now().getTime() + ROTATION_GRACE_MS),
          updatedAt: this.deps.now(),
        })
        .where(eq(webhooks.id, current.id))
        .returning()
      await this.audit.record(tx, tenant, { action: 'integrations.webhook.secret_rotated', target: { type: 'webhook', id }, metadata: webhookFacts(row!) })
      return row!
    })
    return { ...webhookView(row), secret }
  }

  async deliveries(tenant: Tenant, id: string, status: Delivery['status'] | undefined, page: PageParams) {
    await this.webhook(tenant, id)
    const where = and(eq(deliveries.webhookId, id), status ? eq(deliveries.status, status) : undefined)
    return listPage(this.deps.db, deliveries, where, [desc(deliveries.createdAt), desc(deliveries.id)], page, deliveryView)
  }

  /** One delivery with its payload and every attempt, oldest first. */
  async delivery(tenant: Tenant, id: string, deliveryId: string) {
    await this.webhook(tenant, id)
    const [row] = await this.deps.db
      .select()
      .from(deliveries)
      .where(and(eq(deliveries.webhookId, id), eq(deliveries.id, deliveryId)))
    if (!row) throw integrationsError(404, 'not_found', 'No such delivery of this webhook')
    const history = await this.deps.db
      .select()
      .from(deliveryAttempts)
      .where(eq(deliveryAttempts.deliveryId, deliveryId))
      .orderBy(asc(deliveryAttempts.attemptedAt), asc(deliveryAttempts.id))
    return {
      ...deliveryView(row),
      payload: row.payload,
      history: history.map((a) => ({
        attemptedAt: a.attemptedAt.toISOString(),
        responseCode: a.responseCode,
        durationMs: a.durationMs,
        error: a.error,
        responseBody: a.responseBody,
      })),
    }
  }

  /** Sends a delivery again (a new round of attempts), whatever its state. */
  async retry(tenant: Tenant, id: string, deliveryId: string) {
    await this.webhook(tenant, id)
    return this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .update(deliveries)
        .set({ status: 'pending', attempts: 0, updatedAt: this.deps.now() })
        .where(and(eq(deliveries.webhookId, id), eq(deliveries.id, deliveryId)))
        .returning()
      if (!row) throw integrationsError(404, 'not_found', 'No such delivery of this webhook')
      await this.deps.queue.send(tx, JOB, { deliveryId })
      return deliveryView(row)
    })
  }

  /** Queues a `webhook.test` event to this endpoint (subscribed to it or not). */
  async test(tenant: Tenant, id: string) {
    const webhook = await this.webhook(tenant, id)
    return this.deps.db.transaction(async (tx) => deliveryView(await this.enqueue(tx, webhook, TEST_EVENT, { webhookId: id })))
  }

  /** Subscribed to every domain event with a webhook type: queues a delivery to each enabled endpoint that takes it, in the event's transaction. */
  async emit(tx: Db, { ecosystemId, payload }: EventEnvelope<unknown, string | null>, event: EventDefinition): Promise<void> {
    const type = event.webhook
    // Only events of an ecosystem have endpoints to go to.
    if (!type || ecosystemId === null) return
    const data = payload as Record<string, unknown>
    const targets = await tx
      .select()
      .from(webhooks)
      .where(and(eq(webhooks.ecosystemId, ecosystemId), eq(webhooks.enabled, true), sql`${webhooks.events} ? ${type}`))
    for (const webhook of targets) await this.enqueue(tx, webhook, type, data)
  }

  /** The job: one attempt. A failure throws so the queue retries, until the last attempt marks it failed. */
  async deliver(deliveryId: string): Promise<void> {
    const [row] = await this.deps.db.select().from(deliveries).innerJoin(webhooks, eq(webhooks.id, deliveries.webhookId)).where(eq(deliveries.id, deliveryId))
    if (row?.deliveries.status !== 'pending') return
    const { deliveries: delivery, webhooks: webhook } = row
    if (!webhook.enabled && delivery.eventType !== TEST_EVENT)
      return this.finish(delivery, webhook, { ok: false, error: `endpoint disabled${webhook.disabledReason ? `: ${webhook.disabledReason}` : ''}` }, true)
    const timestamp = Math.floor(this.deps.now().getTime() / 1000)
    const signatures = [sign(openSecret(this.deps.secret, PURPOSE, webhook.secretSealed), delivery.id, timestamp, delivery.payload)]
    if (webhook.previousSecretSealed && webhook.previousExpiresAt && webhook.previousExpiresAt > this.deps.now()) {
      signatures.push(sign(openSecret(this.deps.secret, PURPOSE, webhook.previousSecretSealed), delivery.id, timestamp, delivery.payload))
    }
    const { timeoutSeconds } = this.deps.config.webhooks
    const started = performance.now()
    let outcome: Outcome
    try {
      const res = await this.fetch(webhook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': delivery.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signatures.join(' '),
          'user-agent': 'Ecobase-Webhooks',
        },
        body: delivery.payload,
        signal: AbortSignal.timeout(timeoutSeconds * 1000),
      })
      const body = await firstBytes(res, RESPONSE_BODY_BYTES)
      const latencyMs = Math.round(performance.now() - started)
      outcome = res.ok ? { ok: true, code: res.status, latencyMs, body } : { ok: false, code: res.status, latencyMs, body, error: `answered ${res.status}` }
    } catch (err) {
      const error =
        err instanceof OutboundRefused
          ? err.message
          : (err as Error).name === 'TimeoutError'
            ? `no answer within ${timeoutSeconds} s`
            : `could not connect: ${(err as Error).message}`
      outcome = { ok: false, error, latencyMs: Math.round(performance.now() - started) }
    }
    const last = delivery.attempts + 1 >= MAX_ATTEMPTS
    await this.finish(delivery, webhook, outcome, last)
  }

  /**
   * The next attempt after a refusal, as a new job due after `WEBHOOK_RETRY_SECONDS` × 2^(attempt − 1),
   * at most 6 h: queued in the transaction that records the refusal, so one of the two never
   * happens without the other.
   */
  private retryLater(tx: Db, delivery: Delivery) {
    const delay = Math.min(MAX_RETRY_DELAY_SECONDS, this.deps.config.webhooks.retrySeconds * 2 ** delivery.attempts)
    return this.deps.queue.send(tx, JOB, { deliveryId: delivery.id }, { startAfter: delay })
  }

  private async finish(delivery: Delivery, webhook: Webhook, outcome: Outcome, last: boolean) {
    this.attempts.of({ outcome: outcome.ok ? 'delivered' : outcome.code === undefined ? 'failed' : 'rejected' }).inc()
    const now = this.deps.now()
    await this.deps.db.transaction(async (tx) => {
      await tx
        .update(deliveries)
        .set({
          status: outcome.ok ? 'succeeded' : last ? 'failed' : 'pending',
          attempts: sql`${deliveries.attempts} + 1`,
          responseCode: outcome.code ?? null,
          latencyMs: outcome.latencyMs ?? null,
          lastError: outcome.ok ? null : (outcome.error ?? null),
          updatedAt: now,
        })
        .where(eq(deliveries.id, delivery.id))
      await tx.insert(deliveryAttempts).values({
        deliveryId: delivery.id,
        attemptedAt: now,
        responseCode: outcome.code ?? null,
        durationMs: outcome.latencyMs ?? null,
        error: outcome.ok ? null : (outcome.error ?? null),
        responseBody: outcome.body ?? null,
      })
      if (outcome.ok) {
        if (webhook.failingSince) await tx.update(webhooks).set({ failingSince: null }).where(eq(webhooks.id, webhook.id))
        return
      }
      if (!last) {
        await this.retryLater(tx, delivery)
        return
      }
      const since = webhook.failingSince ?? now
      if (now.getTime() - since.getTime() >= DISABLE_AFTER_MS && webhook.enabled) {
        await tx
          .update(webhooks)
          .set({ enabled: false, disabledReason: `every delivery failed since ${since.toISOString()}`, updatedAt: now })
          .where(eq(webhooks.id, webhook.id))
        this.deps.logger.warn('webhook disabled', { ecosystemId: webhook.ecosystemId, webhookId: webhook.id, failingSince: since.toISOString() })
        await this.events.emit(
          tx,
          webhookDisabled,
          webhook.ecosystemId,
          { webhookId: webhook.id, url: webhook.url, failingSince: since.toISOString() },
          systemActor(JOB),
        )
      } else if (!webhook.failingSince) {
        await tx.update(webhooks).set({ failingSince: now }).where(eq(webhooks.id, webhook.id))
      }
    })
  }

  private async enqueue(tx: Db, webhook: Webhook, type: string, data: Record<string, unknown>) {
    const payload = JSON.stringify({ type, timestamp: this.deps.now().toISOString(), data })
    const [row] = await tx.insert(deliveries).values({ webhookId: webhook.id, ecosystemId: webhook.ecosystemId, eventType: type, payload }).returning()
    await this.deps.queue.send(tx, JOB, { deliveryId: row!.id })
    return row!
  }

  private async webhook(tenant: Tenant, id: string, db: Db = this.deps.db, lock = false) {
    const query = db
      .select()
      .from(webhooks)
      .where(and(eq(webhooks.ecosystemId, tenant.ecosystemId), eq(webhooks.id, id)))
    const [row] = lock ? await query.for('update') : await query
    if (!row) throw notFound()
    return row
  }

  /**
   * https, or http to a private (e.g. loopback) address where WEBHOOK_PRIVATE_ADDRESSES=allow; and
   * a host the outbound gate allows now (a name is resolved; each delivery checks it again).
   */
  private async checkUrl(url: string) {
    const parsed = tenantUrl(url)
    const policy = this.deps.config.webhooks.privateAddresses
    await assertTenantHost('url', parsed.hostname, policy, 'WEBHOOK_PRIVATE_ADDRESSES')
    if (parsed.protocol === 'https:') return
    const local = hostAddress(parsed.hostname) !== null || parsed.hostname === 'localhost'
    if (local && policy === 'allow') return
    throw integrationsError(400, 'validation_failed', 'url: must be https (http only to a private address, with WEBHOOK_PRIVATE_ADDRESSES=allow)')
  }

  /** The event types an endpoint may subscribe to (`webhook.test` is sent on request, to any endpoint). */
  private checkEvents(events: string[]): string[] {
    const unknown = events.find((e) => !this.types.includes(e))
    if (unknown) throw integrationsError(400, 'validation_failed', `events: ${unknown} is not an event (known: ${this.types.join(', ')})`)
    return [...new Set(events)]
  }
}

/** For the overview: webhook deliveries that failed for good, per UTC day since `since`. */
export function failedDeliveriesPerDay(db: Db, ecosystemId: string, since: Date) {
  return countPerDay(
    db,
    deliveries,
    deliveries.createdAt,
    and(eq(deliveries.ecosystemId, ecosystemId), eq(deliveries.status, 'failed'), gte(deliveries.createdAt, since)),
  )
}
