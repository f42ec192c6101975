import { Elysia } from 'elysia'
import type { Guards } from '../../platform/guards'
import { pageParams } from '../../platform/paging'
import { AuditEventPage, AuditQuery } from './model'
import type { AuditService } from './service'

const DESCRIPTION =
  'Who changed what, newest first: sign-ins (and failed ones), password changes and resets, sign-out everywhere, API tokens, OAuth clients, team roles and members, ' +
  'instance settings, organizations and ecosystems, site services, webhooks, contract definitions, storage quota overrides, customer tokens issued by admins, and deletions of customers and of content by admins. ' +
  "With X-Ecosystem-Id: that ecosystem's events and those of its organization (team changes), for its admins and owners (members and customers: 403). " +
  'Without it: account-level events, those of no ecosystem (sign-ins, passwords, API tokens, OAuth clients, settings, team changes), for platform admins (the `admin` capability; 403 otherwise). ' +
  '`metadata` names what changed (for a site service its slug, kind and the changed config key names) and never holds a secret, token, password or configuration value. ' +
  'Events are kept AUDIT_RETENTION_DAYS (365). A filter that is not valid (e.g. `from` that is no ISO 8601 time, or after `to`) is 400 `validation_failed`. ' +
  "Tagged `settings`: the spec's tag list has no audit tag."

/** The audit log (tag `settings`, which the spec's tag list offers for instance administration). */
export function auditRoutes(audit: AuditService, guards: Guards) {
  return new Elysia({ name: 'audit', prefix: '/audit', detail: { tags: ['settings'] } })
    .use(guards.tenancy)
    .get(
      '/events',
      ({ tenant, query }) => audit.list(tenant && { ecosystemId: tenant.ecosystemId, organizationId: tenant.organizationId }, query, pageParams(query)),
      {
        tenantOrAdmin: 'admin',
        query: AuditQuery,
        response: { 200: AuditEventPage },
        detail: { operationId: 'auditEvents', summary: 'The audit log: administrative changes and security events', description: DESCRIPTION },
      },
    )
}
