import { Elysia, t } from 'elysia'
import { errors } from './errors'
import type { Guards } from '../../platform/guards'
import { PageQuery, pageParams, paged } from '../../platform/paging'
import {
  Customer,
  CustomerAuthResult,
  CustomerListQuery,
  CustomerPatch,
  CustomerRegisterResult,
  CustomerResolveResult,
  CustomerSupportSession,
  RefreshBody,
  RegisterBody,
  ResolveBody,
  TokenBody,
} from './model'
import type { CustomerService } from './service'
import { IdParam } from '../../platform/params'

const ADMIN = 'Needs an account credential with the admin or owner role in the ecosystem (X-Ecosystem-Id).'
const RESERVED =
  "External ids starting with `user:` or `alert:` are reserved for the records the service keeps: team members' own and alert contacts' (400 `reserved_external_id`)."

export function customerRoutes(customers: CustomerService, guards: Guards) {
  return new Elysia({ name: 'customer', prefix: '/customer', detail: { tags: ['customer'] } })
    .use(guards.tenancy)
    .post('/resolve', async ({ tenant, body }) => ({ customerId: await customers.resolve(tenant.ecosystemId, body) }), {
      tenant: 'admin',
      body: ResolveBody,
      response: { 200: CustomerResolveResult, ...errors({ 400: ['validation_failed', 'reserved_external_id'] }) },
      detail: {
        operationId: 'customerResolve',
        summary: 'The customer id for an external id, created on first use',
        description: `Idempotent, also under concurrent calls. Profile fields are used only when the customer is created. ${RESERVED} ${ADMIN}`,
      },
    })
    .post('/register', async ({ tenant, body, status }) => status(201, { customerId: await customers.register(tenant, body) }), {
      tenant: 'admin',
      body: RegisterBody,
      response: { 201: CustomerRegisterResult, ...errors({ 400: ['validation_failed', 'reserved_external_id'], 409: ['customer_exists'] }) },
      detail: {
        operationId: 'customerRegister',
        summary: 'Provision a new customer',
        description: `At least one of \`name\`, \`email\` and \`externalId\` (not blank): 400 \`validation_failed\` without any. 409 \`customer_exists\` when the externalId is taken. ${RESERVED} ${ADMIN}`,
      },
    })
    .post('/token', ({ tenant, body, headers }) => customers.issueToken(tenant, body.customerId, headers['user-agent'] ?? null), {
      tenant: 'admin',
      body: TokenBody,
      response: { 200: CustomerAuthResult },
      detail: {
        operationId: 'customerToken',
        summary: 'Issue tokens for a customer (from your backend)',
        description: `Starts a customer session: a short-lived JWT (\`typ\` \`customer\`) and a single-use refresh token. 403 \`forbidden\` for a team member's own customer record (\`user:<id>\`): members act with their own credentials, and no admin can act as them. ${ADMIN}`,
      },
    })
    .post('/support-sessions', ({ tenant, body, headers }) => customers.startSupportSession(tenant, body.customerId, headers['user-agent'] ?? null), {
      tenant: 'admin',
      body: TokenBody,
      response: { 200: CustomerSupportSession },
      detail: {
        operationId: 'customerStartSupportSession',
        summary: 'Act as a customer for a short while (support)',
        description: `For an operator who needs to see what a customer sees (the console's chat playground): one customer JWT, valid for 15 minutes (or the access-token lifetime if shorter) and never refreshable, so the session ends by itself. Recorded in the audit log as \`customer.support_session.started\` (actor: you, target: the customer). 404 \`not_found\` for a customer of another ecosystem; 403 \`forbidden\` for a team member's own customer record (\`user:<id>\`), which nobody may act as. ${ADMIN}`,
      },
    })
    .delete(
      '/support-sessions/:id',
      async ({ tenant, params, status }) => {
        await customers.endSupportSession(tenant, params.id)
        return status(204, undefined)
      },
      {
        tenant: 'admin',
        params: IdParam,
        response: { 204: t.Void({ description: 'Ended (or had already ended)' }), ...errors(404) },
        detail: {
          operationId: 'customerEndSupportSession',
          summary: 'End a support session before its time',
          description: `The id is the \`sessionId\` POST /customer/support-sessions answered. Its token is refused from its next request, on every replica. Recorded in the audit log as \`customer.support_session.ended\` (actor: you, target: the customer); a session that already ended or expired answers 204 again and is not recorded twice. 404 \`not_found\` for anything else: another ecosystem's session, or a customer's own (refreshable) session, which the customer signs out of. ${ADMIN}`,
        },
      },
    )
    .post('/refresh', ({ body }) => customers.refresh(body.refreshToken), {
      body: RefreshBody,
      response: { 200: CustomerAuthResult, ...errors(400, 401) },
      detail: {
        operationId: 'customerRefresh',
        summary: 'Rotate a customer refresh token',
        description: 'Single use: presenting a used refresh token revokes the whole customer session. 401 `invalid_refresh_token`.',
      },
    })
    .post(
      '/revoke',
      async ({ body, status }) => {
        await customers.revoke(body.refreshToken)
        return status(204, undefined)
      },
      {
        body: RefreshBody,
        response: { 204: t.Void({ description: 'Signed out' }), ...errors(400) },
        detail: {
          operationId: 'customerRevoke',
          summary: 'Sign a customer out (unknown tokens are ignored)',
          description:
            'Public (the refresh token is the credential): revokes the customer session the refresh token belongs to, on every replica at once; its access tokens are refused from their next request. An unknown or already-used token answers 204 as well, so the answer tells nothing about tokens.',
        },
      },
    )
    .get('/me', ({ tenant }) => customers.me(tenant), {
      tenant: 'customer',
      response: { 200: Customer },
      detail: {
        operationId: 'customerMe',
        summary: 'The calling customer',
        description: 'With a customer token; or an account member with X-Ecosystem-Id, who gets its own customer record (external id `user:<userId>`).',
      },
    })
    .get('/customers', ({ tenant, query }) => customers.list(tenant, query, pageParams(query)), {
      tenant: 'admin',
      query: t.Composite([PageQuery, CustomerListQuery]),
      response: { 200: paged(Customer, 'CustomerPage') },
      detail: {
        operationId: 'customerList',
        summary: 'Customers of the ecosystem, newest first',
        description: `The records the service keeps for itself (team members’ own \`user:\`, alert contacts’ \`alert:\`) are neither listed nor counted unless \`includeServiceRecords=true\`; GET by id finds them either way. ${ADMIN}`,
      },
    })
    .get('/customers/:id', ({ tenant, params }) => customers.get(tenant, params.id), {
      tenant: 'admin',
      params: IdParam,
      response: { 200: Customer },
      detail: { operationId: 'customerGet', summary: 'One customer', description: ADMIN },
    })
    .patch('/customers/:id', ({ tenant, params, body }) => customers.update(tenant, params.id, body), {
      tenant: 'admin',
      params: IdParam,
      body: CustomerPatch,
      response: { 200: Customer, ...errors({ 400: ['validation_failed', 'reserved_external_id'], 409: ['customer_exists'] }) },
      detail: {
        operationId: 'customerUpdate',
        summary: 'Change a customer',
        description: `Sends only the fields to change; null clears one. 400 \`validation_failed\` when the customer would be left without a name, an e-mail and an external id. ${RESERVED} The external id of a member's own record cannot change (403 \`forbidden\`). ${ADMIN}`,
      },
    })
    .delete(
      '/customers/:id',
      async ({ tenant, params, status }) => {
        await customers.remove(tenant, params.id)
        return status(204, undefined)
      },
      {
        tenant: 'admin',
        params: IdParam,
        response: { 204: t.Void({ description: 'Deleted' }) },
        detail: {
          operationId: 'customerDelete',
          summary: 'Delete a customer with its sessions and data',
          description: `Its tokens stop working at once. Its files are deleted from the object store by a job within minutes (once their upload URLs have expired). ${ADMIN}`,
        },
      },
    )
}
