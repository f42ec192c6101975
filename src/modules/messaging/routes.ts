import { Elysia, t } from 'elysia'
import type { Guards } from '../../platform/guards'
import { errors } from './errors'
import { pageParams, PageQuery } from '../../platform/paging'
import {
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
import { IdParam } from '../../platform/params'

const ADMINS = 'Ecosystem admins and owners.'
const SEND =
  'Sends at once through the ecosystem’s provider (its enabled site service, else the instance default, else the local outbox) and answers with the provider’s verdict: a provider failure is `status: "failed"` with `error`, never a 5xx. Every attempt is written to the log with `sentBy` = the calling admin. ' +
  'Give `templateId`, or the content itself. 400 `no_recipient` when the customer has none; 400 `missing_variable` names a placeholder without a value. Notification deliveries do not come through here: they are queued jobs with retries. ' +
  ADMINS

/** E-mail and SMS to customers (tag `messaging`). */
export function messagingRoutes(messaging: MessagingService, guards: Guards) {
  return new Elysia({ name: 'messaging', prefix: '/messaging', detail: { tags: ['messaging'] } })
    .use(guards.auth)
    .use(guards.tenancy)
    .get('/templates', ({ tenant, query }) => messaging.listTemplates(tenant, pageParams(query)), {
      tenant: 'admin',
      query: PageQuery,
      response: { 200: MessagingTemplatePage, ...errors(400, 401, 403, 404) },
      detail: { operationId: 'messagingTemplatesList', summary: 'Message templates, by name', description: ADMINS },
    })
    .post(
      '/templates',
      async ({ tenant, body, set }) => {
        const created = await messaging.createTemplate(tenant, body)
        set.status = 201
        return created
      },
      {
        tenant: 'admin',
        body: TemplateCreate,
        response: { 201: MessagingTemplate, ...errors(400, 401, 403, 404, { 409: ['template_name_taken'] }) },
        detail: { operationId: 'messagingTemplatesCreate', summary: 'Create a template', description: `Placeholders are \`{{name}}\`. ${ADMINS}` },
      },
    )
    .get('/templates/:id', ({ tenant, params }) => messaging.getTemplate(tenant, params.id), {
      tenant: 'admin',
      params: IdParam,
      response: { 200: MessagingTemplate, ...errors(400, 401, 403, 404) },
      detail: { operationId: 'messagingTemplatesGet', summary: 'One template', description: ADMINS },
    })
    .patch('/templates/:id', ({ tenant, params, body }) => messaging.updateTemplate(tenant, params.id, body), {
      tenant: 'admin',
      params: IdParam,
      body: TemplatePatch,
      response: { 200: MessagingTemplate, ...errors(400, 401, 403, 404, { 409: ['template_name_taken'] }) },
      detail: { operationId: 'messagingTemplatesUpdate', summary: 'Change a template', description: `\`smsBody: null\` removes the SMS text. ${ADMINS}` },
    })
    .delete(
      '/templates/:id',
      async ({ tenant, params, status }) => {
        await messaging.removeTemplate(tenant, params.id)
        return status(204, undefined)
      },
      {
        tenant: 'admin',
        params: IdParam,
        response: { 204: t.Void({ description: 'Deleted' }), ...errors(400, 401, 403, 404) },
        detail: { operationId: 'messagingTemplatesDelete', summary: 'Delete a template', description: `Log entries keep its id. ${ADMINS}` },
      },
    )
    .post('/templates/:id/preview', ({ tenant, params, body }) => messaging.preview(tenant, params.id, body.variables ?? {}), {
      tenant: 'admin',
      params: IdParam,
      body: PreviewBody,
      response: { 200: MessagingPreview, ...errors(401, 403, 404, { 400: ['validation_failed', 'missing_variable'] }) },
      detail: { operationId: 'messagingTemplatesPreview', summary: 'Render a template without sending it', description: `400 \`missing_variable\` names a placeholder without a value. ${ADMINS}` },
    })
    .get('/status', ({ tenant }) => messaging.status(tenant), {
      tenant: 'admin',
      response: { 200: MessagingStatus, ...errors(400, 401, 403, 404) },
      detail: { operationId: 'messagingStatus', summary: 'Whether real e-mail and SMS providers are configured', description: ADMINS },
    })
    .post('/email', ({ tenant, body }) => messaging.sendEmail(tenant, body), {
      tenant: 'admin',
      body: EmailSend,
      response: { 200: MessagingSendResult, ...errors(401, 403, 404, { 400: ['validation_failed', 'missing_variable', 'no_recipient'] }) },
      detail: { operationId: 'messagingSendEmail', summary: 'E-mail a customer', description: SEND },
    })
    .post('/sms', ({ tenant, body }) => messaging.sendSms(tenant, body), {
      tenant: 'admin',
      body: SmsSend,
      response: { 200: MessagingSendResult, ...errors(401, 403, 404, { 400: ['validation_failed', 'missing_variable', 'no_recipient'] }) },
      detail: { operationId: 'messagingSendSms', summary: 'Text a customer', description: `Uses the template’s smsBody, else its textBody. ${SEND}` },
    })
    .get('/log', ({ tenant, query }) => messaging.log(tenant, query, pageParams(query)), {
      tenant: 'admin',
      query: t.Composite([LogQuery, PageQuery]),
      response: { 200: MessagingLogPage, ...errors(400, 401, 403, 404) },
      detail: { operationId: 'messagingLog', summary: 'Send attempts, newest first', description: ADMINS },
    })
    .get('/outbox', ({ tenant, query }) => messaging.outbox(tenant.ecosystemId, pageParams(query)), {
      tenant: 'admin',
      query: PageQuery,
      response: { 200: OutboxPage, ...errors(400, 401, 403, 404) },
      detail: {
        operationId: 'messagingOutbox',
        summary: 'Messages kept locally because no provider is configured',
        description: `The embedded stand-in for a provider, so the whole flow works on a laptop: with no smtp/twilio site service and no instance default, messages land here instead of going out (and MessagingStatus says false). ${ADMINS}`,
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
