import { Elysia, t } from 'elysia'
import type { Guards } from '../../platform/guards'
import { errors, messagingError } from './errors'
import { pageParams, PageQuery } from '../../platform/paging'
import {
  SmsStatusCallback,
  EmailSend,
  LogQuery,
  MessagingLogPage,
  MessagingPreview,
  MessagingSendResult,
  MessagingStatus,
  MessagingTemplate,
  MessagingTemplatePage,
  OutboxPage,
  PreviewBody,
  SmsSend,
  TemplateCreate,
  TemplatePatch,
} from './model'
import type { MessagingService } from './service'
import { adminResource } from '../../platform/crud/admin'
import { IdParam } from '../../platform/params'

const SEND =
  'Sends at once through the ecosystem’s provider (its enabled site service, else the instance default, else the local outbox) and answers with the provider’s verdict: a provider failure is `status: "failed"` with `error`, never a 5xx. Every attempt is written to the log with `sentBy` = the calling admin. ' +
  'Give `templateId`, or the content itself. 400 `no_recipient` when the customer has none; 400 `missing_variable` names a placeholder without a value. Notification deliveries do not come through here: they are queued jobs with retries. ' +
  'The message’s category (the template’s, else `category`, default `transactional`) decides: for a notification category the customer’s preference for this channel must allow it (else 409 `unsubscribed`, nothing sent or logged) and an e-mail carries a one-click List-Unsubscribe; `transactional` always goes, without one.'

/** E-mail and SMS to customers (tag `messaging`). */
export function messagingRoutes(messaging: MessagingService, guards: Guards) {
  return new Elysia({ name: 'messaging', prefix: '/messaging', detail: { tags: ['messaging'] } })
    .use(guards.auth)
    .use(guards.tenancy)
    .use(
      adminResource(guards, {
        path: '/templates',
        schemas: { page: MessagingTemplatePage, create: TemplateCreate, item: MessagingTemplate, detail: MessagingTemplate, patch: TemplatePatch },
        service: {
          list: (tenant, page) => messaging.listTemplates(tenant, page),
          create: (tenant, body) => messaging.createTemplate(tenant, body),
          get: (tenant, id) => messaging.getTemplate(tenant, id),
          update: (tenant, id, body) => messaging.updateTemplate(tenant, id, body),
          remove: (tenant, id) => messaging.removeTemplate(tenant, id),
        },
        operations: {
          list: { operationId: 'messagingTemplatesList', summary: 'Message templates, by name' },
          create: {
            operationId: 'messagingTemplatesCreate',
            summary: 'Create a template',
            description: 'Placeholders are `{{name}}`.',
            errors: errors({ 409: ['template_name_taken'] }),
          },
          get: { operationId: 'messagingTemplatesGet', summary: 'One template' },
          update: {
            operationId: 'messagingTemplatesUpdate',
            summary: 'Change a template',
            description: '`smsBody: null` removes the SMS text.',
            errors: errors({ 409: ['template_name_taken'] }),
          },
          remove: { operationId: 'messagingTemplatesDelete', summary: 'Delete a template', description: 'Log entries keep its id.', deleted: 'Deleted' },
        },
      }),
    )
    .post('/templates/:id/preview', ({ tenant, params, body }) => messaging.preview(tenant, params.id, body.variables ?? {}), {
      tenant: 'admin',
      params: IdParam,
      body: PreviewBody,
      response: { 200: MessagingPreview, ...errors({ 400: ['validation_failed', 'missing_variable'] }) },
      detail: {
        operationId: 'messagingTemplatesPreview',
        summary: 'Render a template without sending it',
        description: `400 \`missing_variable\` names a placeholder without a value.`,
      },
    })
    .get('/status', ({ tenant }) => messaging.status(tenant), {
      tenant: 'admin',
      response: { 200: MessagingStatus },
      detail: { operationId: 'messagingStatus', summary: 'Whether real e-mail and SMS providers are configured' },
    })
    .post('/email', ({ tenant, body }) => messaging.sendEmail(tenant, body), {
      tenant: 'admin',
      body: EmailSend,
      response: { 200: MessagingSendResult, ...errors({ 400: ['validation_failed', 'missing_variable', 'no_recipient'], 409: ['unsubscribed'] }) },
      detail: { operationId: 'messagingSendEmail', summary: 'E-mail a customer', description: SEND },
    })
    .post('/sms', ({ tenant, body }) => messaging.sendSms(tenant, body), {
      tenant: 'admin',
      body: SmsSend,
      response: { 200: MessagingSendResult, ...errors({ 400: ['validation_failed', 'missing_variable', 'no_recipient'], 409: ['unsubscribed'] }) },
      detail: { operationId: 'messagingSendSms', summary: 'Text a customer', description: `Uses the template’s smsBody, else its textBody. ${SEND}` },
    })
    .post(
      '/sms/status',
      async ({ body, headers, status }) => {
        if (!(await messaging.smsStatus(headers['x-twilio-signature'] ?? '', body as Record<string, string>))) {
          throw messagingError(403, 'forbidden', 'The X-Twilio-Signature does not verify for this message')
        }
        return status(204, undefined)
      },
      {
        body: SmsStatusCallback,
        headers: t.Object({ 'x-twilio-signature': t.Optional(t.String({ maxLength: 200 })) }),
        response: { 204: t.Void({ description: 'Recorded (or a status that changes nothing)' }), ...errors({ 403: ['forbidden'] }) },
        detail: {
          operationId: 'messagingSmsStatus',
          summary: 'Twilio’s status callback for an SMS',
          description:
            'Every SMS is sent with this URL (under PUBLIC_URL) as its StatusCallback. Twilio posts the message’s status, form-encoded and signed (X-Twilio-Signature, verified with the twilio SDK against the auth token it was sent with: 403 otherwise). `delivered`, `undelivered` and `failed` move the log entry there; a failure is also the `messaging.failed` webhook event. Not for your own calls.',
        },
      },
    )
    .get('/log', ({ tenant, query }) => messaging.log(tenant, query, pageParams(query)), {
      tenant: 'admin',
      query: t.Composite([LogQuery, PageQuery]),
      response: { 200: MessagingLogPage },
      detail: { operationId: 'messagingLog', summary: 'Send attempts, newest first' },
    })
    .get('/outbox', ({ tenant, query }) => messaging.outbox(tenant.ecosystemId, pageParams(query)), {
      tenant: 'admin',
      query: PageQuery,
      response: { 200: OutboxPage },
      detail: {
        operationId: 'messagingOutbox',
        summary: 'Messages kept locally because no provider is configured',
        description: `The embedded stand-in for a provider, so the whole flow works on a laptop: with no smtp/twilio site service and no instance default, messages land here instead of going out (and MessagingStatus says false).`,
      },
    })
    .get('/outbox/instance', ({ query }) => messaging.outbox(null, pageParams(query)), {
      admin: true,
      query: PageQuery,
      response: { 200: OutboxPage, ...errors(400, 401, 403) },
      detail: {
        operationId: 'messagingInstanceOutbox',
        summary: 'The instance’s own e-mails kept locally (platform admins)',
        description: 'Password-reset and verification e-mails when SMTP_URL is not set. Platform admins only.',
      },
    })
}
