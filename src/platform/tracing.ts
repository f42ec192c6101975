import {
  type Attributes,
  type Context,
  context,
  createContextKey,
  defaultTextMapGetter,
  defaultTextMapSetter,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api'
import {
  ATTR_DB_OPERATION_NAME,
  ATTR_DB_SYSTEM_NAME,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  DB_SYSTEM_NAME_VALUE_POSTGRESQL,
} from '@opentelemetry/semantic-conventions'
import type { Config } from '../config'
import type * as TracingSdk from './tracing-sdk'

/**
 * Attributes still in OpenTelemetry's incubating conventions, written out rather than imported from
 * their unstable entry point: the older `db.system` beside `db.system.name` (most backends still key
 * on it), the messaging ones of a job run, and the GenAI ones of a model call.
 */
export const ATTR = {
  dbSystem: 'db.system',
  messagingSystem: 'messaging.system',
  messagingOperationType: 'messaging.operation.type',
  messagingDestination: 'messaging.destination.name',
  messagingMessageId: 'messaging.message.id',
  genAiOperation: 'gen_ai.operation.name',
  genAiProvider: 'gen_ai.provider.name',
  genAiRequestModel: 'gen_ai.request.model',
  genAiInputTokens: 'gen_ai.usage.input_tokens',
  genAiOutputTokens: 'gen_ai.usage.output_tokens',
} as const

/** The trace context a queued job carries from the request (or job) that sent it: W3C `traceparent` and `tracestate`. */
export type TraceCarrier = Record<string, string>

/** The app's tracer, kept in the context of every span it starts, so code deep in a request (a statement, an outbound call) starts children without being handed it. */
const TRACER = createContextKey('ecobase tracer')

let sdk: typeof TracingSdk | undefined

/**
 * The OpenTelemetry SDK and its OTLP exporter (about 200 modules), loaded when an app with tracing
 * configured is built, not at every start (bench/README.md, P7). Nothing is traced without it.
 */
function tracingSdk(): typeof TracingSdk {
  sdk ??= require('./tracing-sdk') as typeof TracingSdk
  return sdk
}

/** The tracer of the active trace, with its context; null outside a traced request or job (tracing off: always). */
function active(): { tracer: Tracer; parent: Context } | null {
  const parent = context.active()
  const tracer = parent.getValue(TRACER) as Tracer | undefined
  return tracer ? { tracer, parent } : null
}

/**
 * Starts a span as a child of the active one and returns it without making it active (a statement,
 * a model call streamed across yields); undefined outside a traced request or job. End it.
 */
export function startChildSpan(name: string, kind: SpanKind, attributes: Attributes): Span | undefined {
  const current = active()
  if (!current || !trace.getSpan(current.parent)?.isRecording()) return undefined
  return current.tracer.startSpan(name, { kind, attributes }, current.parent)
}

/** Runs `fn` in a child span of the active one (an outbound call), ending it when `fn` settles; without a traced parent `fn` just runs. */
export async function inChildSpan<T>(name: string, kind: SpanKind, attributes: Attributes, fn: (span: Span | undefined) => Promise<T>): Promise<T> {
  const span = startChildSpan(name, kind, attributes)
  if (!span) return fn(undefined)
  try {
    return await context.with(trace.setSpan(context.active(), span), () => fn(span))
  } catch (err) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.name ?? 'Error' })
    throw err
  } finally {
    span.end()
  }
}

/** Adds `traceparent` (and `tracestate`) of the active span to outgoing headers, so the receiver continues the trace. */
export function injectTraceHeaders(headers: Headers): void {
  if (!active()) return
  tracingSdk().propagator.inject(context.active(), headers, { set: (carrier, key, value) => carrier.set(key, value) })
}

/** The active span's context for a job sent now, or null when nothing is traced. */
export function traceCarrier(): TraceCarrier | null {
  if (!active()) return null
  const carrier: TraceCarrier = {}
  tracingSdk().propagator.inject(context.active(), carrier, defaultTextMapSetter)
  return carrier.traceparent ? carrier : null
}

/** The trace id of the active span, for log lines; undefined outside a trace. */
export function activeTraceId(): string | undefined {
  const span = trace.getSpan(context.active())
  if (!span) return undefined
  const { traceId } = span.spanContext()
  return trace.isSpanContextValid(span.spanContext()) ? traceId : undefined
}

/** The span name and attributes of a database statement: its first keyword only, never the text (values may stand in it). */
export function statementSpan(text: string): { name: string; attributes: Attributes } {
  const keyword = /^\s*([A-Za-z]+)/.exec(text)?.[1]?.toUpperCase()
  const name = keyword && SQL_KEYWORDS.has(keyword) ? keyword : 'db.query'
  return {
    name,
    attributes: { [ATTR_DB_SYSTEM_NAME]: DB_SYSTEM_NAME_VALUE_POSTGRESQL, [ATTR.dbSystem]: DB_SYSTEM_NAME_VALUE_POSTGRESQL, [ATTR_DB_OPERATION_NAME]: name },
  }
}

const SQL_KEYWORDS = new Set([
  'SELECT',
  'INSERT',
  'UPDATE',
  'DELETE',
  'WITH',
  'BEGIN',
  'COMMIT',
  'ROLLBACK',
  'SAVEPOINT',
  'RELEASE',
  'SET',
  'SHOW',
  'CREATE',
  'ALTER',
  'DROP',
  'TRUNCATE',
  'LOCK',
  'COPY',
  'NOTIFY',
  'LISTEN',
  'UNLISTEN',
  'VACUUM',
  'ANALYZE',
  'EXPLAIN',
  'DO',
  'CALL',
])

/** The attributes of an outbound HTTP call: the method, the host and port, never the path or query (they may carry tokens). */
export function outboundAttributes(method: string, url: URL): Attributes {
  return {
    [ATTR_HTTP_REQUEST_METHOD]: method,
    [ATTR_SERVER_ADDRESS]: url.hostname,
    [ATTR_SERVER_PORT]: Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
  }
}

/**
 * OpenTelemetry traces of one app, exported over OTLP/HTTP (JSON) when an endpoint is configured
 * (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT); otherwise nothing is
 * started and every hook is skipped. The provider is the app's own, never registered globally:
 * apps built side by side in one process (tests, replicas) keep their traces apart. What is traced:
 * requests (platform/http.ts), statements (platform/db/watch.ts), outbound calls
 * (platform/outbound.ts), job runs (platform/queue.ts) and model calls (chat's turns).
 */
export class Tracing {
  private readonly provider: TracingSdk.TracerProvider | null = null
  private readonly tracer: Tracer | null = null
  private readonly requests = new WeakMap<Request, Span>()

  constructor(config: Config['tracing'], version: string) {
    if (!config.url) return
    this.provider = tracingSdk().tracerProvider({ ...config, url: config.url }, version)
    this.tracer = this.provider.getTracer('ecobase', version)
  }

  get enabled(): boolean {
    return this.provider !== null
  }

  /** Runs a request's handling in its server span, continuing the caller's trace when it sends a `traceparent`. */
  request<T>(request: Request, handle: () => T): T {
    if (!this.tracer) return handle()
    const parent = tracingSdk().propagator.extract(ROOT_CONTEXT, request.headers, { get: (headers, key) => headers.get(key) ?? undefined, keys: () => [] })
    const span = this.tracer.startSpan(request.method, { kind: SpanKind.SERVER, attributes: { [ATTR_HTTP_REQUEST_METHOD]: request.method } }, parent)
    this.requests.set(request, span)
    return context.with(trace.setSpan(parent, span).setValue(TRACER, this.tracer), handle)
  }

  /** Names a request's span by its route template (never the path: ids would make every name unique) and ends it. */
  endRequest(request: Request, route: string | undefined, status: number): void {
    const span = this.requests.get(request)
    if (!span) return
    this.requests.delete(request)
    if (route) span.updateName(`${request.method} ${route}`).setAttribute(ATTR_HTTP_ROUTE, route)
    span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status)
    if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR })
    span.end()
  }

  /**
   * Runs one queued job in a span of its own trace, linked to the span that sent it (`carrier`): a
   * job runs later, often after its request answered, and retries run again, so it is not a child.
   */
  async job<T>(queue: string, id: string, carrier: TraceCarrier | undefined, run: () => Promise<T>): Promise<T> {
    if (!this.tracer) return run()
    const sender = carrier ? trace.getSpanContext(tracingSdk().propagator.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter)) : undefined
    const span = this.tracer.startSpan(
      `process ${queue}`,
      {
        kind: SpanKind.CONSUMER,
        attributes: {
          [ATTR.messagingSystem]: 'pg-boss',
          [ATTR.messagingOperationType]: 'process',
          [ATTR.messagingDestination]: queue,
          [ATTR.messagingMessageId]: id,
        },
        links: sender && trace.isSpanContextValid(sender) ? [{ context: sender }] : [],
      },
      ROOT_CONTEXT,
    )
    try {
      return await context.with(trace.setSpan(ROOT_CONTEXT, span).setValue(TRACER, this.tracer), run)
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.name ?? 'Error' })
      throw err
    } finally {
      span.end()
    }
  }

  /** Exports every ended span now (tests; shutdown). */
  async flush(): Promise<void> {
    await this.provider?.forceFlush()
  }

  /** Exports what is left and stops exporting. */
  async shutdown(): Promise<void> {
    await this.provider?.shutdown()
  }
}
