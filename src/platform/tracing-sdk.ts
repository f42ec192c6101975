/**
 * The OpenTelemetry SDK behind platform/tracing.ts, which loads this module only when tracing is
 * configured: the SDK, its OTLP exporter and their dependencies are about 200 modules.
 */
import { context, type TextMapPropagator } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace'
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions'
import type { Config } from '../config'
import type { TracesSampler } from './tracing-config'

export type { TracerProvider }

/** Only trace ids cross the process boundary: W3C Trace Context, never Baggage (which could carry a caller's data into our spans' neighbours). */
export const propagator: TextMapPropagator = new W3CTraceContextPropagator()

let contextManagerSet = false

/** An app's own provider (never registered globally), exporting over OTLP/HTTP (JSON) to `config.url`. */
export function tracerProvider(config: Config['tracing'] & { url: string }, version: string): TracerProvider {
  if (!contextManagerSet) {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
    contextManagerSet = true
  }
  return new TracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: config.serviceName, [ATTR_SERVICE_VERSION]: version }),
    sampler: sampler(config.sampler, config.ratio),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: config.url, headers: config.headers }) })],
  })
}

/** The standard samplers by their OTEL_TRACES_SAMPLER names; `ratio` is OTEL_TRACES_SAMPLER_ARG. */
function sampler(name: TracesSampler, ratio: number): Sampler {
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler()
    case 'always_off':
      return new AlwaysOffSampler()
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio)
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() })
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() })
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) })
  }
}
