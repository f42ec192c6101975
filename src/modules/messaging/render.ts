import { escapeHtml } from '../../platform/html'
import { messagingError } from './errors'

/** `{{name}}` or `{{ name }}`; names are letters, digits, `_`, `.` and `-`. */
const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g

/** Placeholders a text uses, in order of first use. */
export function placeholders(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]!))]
}

/**
 * Fills `{{variable}}` placeholders. Values are HTML-escaped in `html` mode and inserted as they are
 * otherwise; a placeholder without a value is a 400 naming it, so nothing half-filled goes out.
 */
export function render(text: string, variables: Record<string, string>, mode: 'html' | 'plain'): string {
  return text.replace(PLACEHOLDER, (_, name: string) => {
    const value = Object.hasOwn(variables, name) ? variables[name] : undefined
    if (value === undefined) throw messagingError(400, 'missing_variable', `variables.${name}: the template uses {{${name}}} but no value was given`)
    return mode === 'html' ? escapeHtml(value) : value
  })
}

/** A header value from rendered text: line breaks fold to spaces, so no variable can add a header. */
export const oneLine = (value: string) => value.replace(/[\r\n\u2028\u2029]+/g, ' ').trim()

export interface RenderedMessage {
  subject: string
  html: string
  text: string
  sms: string | null
}

export function renderTemplate(
  template: { subject: string; htmlBody: string; textBody: string; smsBody: string | null },
  variables: Record<string, string>,
): RenderedMessage {
  return {
    subject: oneLine(render(template.subject, variables, 'plain')),
    html: render(template.htmlBody, variables, 'html'),
    text: render(template.textBody, variables, 'plain'),
    sms: template.smsBody === null ? null : render(template.smsBody, variables, 'plain'),
  }
}
