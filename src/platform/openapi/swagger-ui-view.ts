/**
 * The document as the /openapi page hands it to Swagger UI: the same operations and schemas,
 * written as OpenAPI 3.0. Swagger UI 5 reads a 3.1 document through ApiDOM, which took 5.5–8.6 s
 * of the browser's CPU on ours (1.2 MB, 6,800 $refs) before the first operation showed; the 3.0
 * reader shows it in about a second (swagger-api/swagger-ui#10250, #10748; bench/README.md P20).
 * The published document stays 3.1 (openapi.json, /openapi/json); only what 3.0 cannot say is
 * rewritten: `type: [X, "null"]` and a `{ type: "null" }` branch become `nullable`, `const` a
 * one-value `enum`, a schema's `examples` list its first `example`. 3.0 has no `webhooks`: the
 * description points to them in the full document.
 */
export function swaggerUiView(document: object): object {
  const { webhooks, ...rest } = structuredClone(document) as Record<string, unknown> & { info?: { description?: string } }
  const view = { ...(toOpenApi30(rest) as typeof rest), openapi: '3.0.3' }
  if (webhooks && view.info)
    view.info.description = `${view.info.description ?? ''}\n\nThe events delivered to webhooks are described under \`webhooks\` in [the JSON document](openapi/json) (OpenAPI 3.1), which this page shows as OpenAPI 3.0.`
  return view
}

function toOpenApi30(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toOpenApi30)
  if (!node || typeof node !== 'object') return node
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) out[key] = toOpenApi30(value)
  if (Array.isArray(out.type)) {
    const types = (out.type as string[]).filter((t) => t !== 'null')
    if (types.length < out.type.length) out.nullable = true
    if (types.length === 1) out.type = types[0]
    else delete out.type
  }
  if (Array.isArray(out.anyOf) && out.anyOf.some(isNullSchema)) {
    out.anyOf = out.anyOf.filter((s) => !isNullSchema(s))
    out.nullable = true
  }
  if ('const' in out) {
    out.enum = [out.const]
    delete out.const
  }
  if (Array.isArray(out.examples)) {
    if (out.examples.length) out.example = out.examples[0]
    delete out.examples
  }
  return out
}

const isNullSchema = (schema: unknown) => !!schema && typeof schema === 'object' && (schema as { type?: unknown }).type === 'null'
