import { subscriber } from '../module'
import type { IntegrationsService } from './service'

const { each } = subscriber<IntegrationsService>()

export const INTEGRATIONS_SUBSCRIPTIONS = [
  each(
    'every event with a webhook type',
    (event) => event.webhook !== undefined,
    "queues a delivery to each of the ecosystem's endpoints subscribed to it",
    (webhooks) => (tx, event, definition) => webhooks.emit(tx, event, definition),
  ),
]
