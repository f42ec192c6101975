import { subscriber } from '../module'
import { passwordChanged, securityChanged } from './events'
import type { AuthService } from './service'

const { on } = subscriber<AuthService>()

/** The e-mails that tell an account's owner about changes to its credentials, queued with the change. */
export const AUTH_SUBSCRIPTIONS = [
  on(
    passwordChanged,
    'queues the "password changed" e-mail to the owner',
    (auth) =>
      (tx, { payload }) =>
        auth.emails.queuePasswordNotice(tx, payload),
  ),
  on(
    securityChanged,
    'queues the "account security" e-mail to the owner',
    (auth) =>
      (tx, { payload }) =>
        auth.emails.queueSecurityNotice(tx, payload),
  ),
]
