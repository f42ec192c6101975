import type { AuditAction } from '..'
import { type Subscription, subscriber } from '../module'
import type { AuditService } from './service'

const { each } = subscriber<AuditService>()

export const AUDIT_SUBSCRIPTIONS: readonly Subscription<AuditService>[] = [
  each(
    'every audited event',
    (event) => event.audit !== undefined,
    'records it as the audit action of its name (or the one it names), with who emitted it',
    (audit) =>
      (tx, { ecosystemId, payload, by }, event) => {
        if (!by) throw new Error(`the audited event ${event.name} was emitted without who acted`)
        return audit.record(tx, by, {
          action: (event.audit!.action?.(payload as never) ?? event.name) as AuditAction,
          target: event.audit!.target(payload as never),
          metadata: event.audit!.metadata?.(payload as never),
          ...(ecosystemId && !('ecosystemId' in by) ? { ecosystemId } : {}),
        })
      },
  ),
]
