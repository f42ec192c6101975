/** The standard OpenTelemetry settings as src/config.ts reads them (platform/tracing.ts uses them). */

/** OpenTelemetry's standard sampler names (OTEL_TRACES_SAMPLER); `parentbased_always_on` is its default. */
export const TRACES_SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const
export type TracesSampler = (typeof TRACES_SAMPLERS)[number]

/**
 * Where traces go, as OpenTelemetry's exporters read it: the signal's own endpoint as given, else
 * the general endpoint with `v1/traces` appended. Null: neither is set, tracing is off.
 */
export function tracesUrl(traces: string | undefined, general: string | undefined): string | null {
  if (traces) return traces
  if (!general) return null
  return `${general.replace(/\/+$/, '')}/v1/traces`
}

/**
 * OTEL_EXPORTER_OTLP_HEADERS: `key=value` pairs separated by commas, each part URL-encoded (the W3C
 * Baggage format the specification names); null when it is not that.
 */
export function otlpHeaders(value: string | undefined): Record<string, string> | null {
  const headers: Record<string, string> = {}
  for (const pair of (value ?? '').split(',')) {
    if (!pair.trim()) continue
    const at = pair.indexOf('=')
    if (at <= 0) return null
    try {
      headers[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim())
    } catch {
      return null
    }
  }
  return headers
}
