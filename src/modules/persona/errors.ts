import { errorCatalogue } from '../../platform/errors'

/** The error codes the persona area answers besides the platform's (code → meaning, shown in the OpenAPI document). */
export const PERSONA_ERRORS = {
  service_not_found: 'serviceId names no persona service of this ecosystem',
  slug_taken: 'another persona of this ecosystem has this slug',
  ambiguous_slug: 'several ecosystems have a persona with this slug: name one with ?ecosystem=',
  invalid_base_url: 'baseUrl is not a valid URL, or carries credentials or a fragment',
  base_url_not_allowed: 'baseUrl points at an address this instance may not reach',
  base_url_required: 'baseUrl is required without a template that has one',
  unknown_template: 'templateId names no service template',
} as const

/** `personaError(status, code, message)` throws only platform or persona codes; `errors(...)` lists them on routes. */
export const { error: personaError, errors } = errorCatalogue(PERSONA_ERRORS)
