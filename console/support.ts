import { useEffect, useState } from 'preact/hooks'
import { createClient } from '../client/index'
import { client, data } from './api'

/** A support session (POST /customer/support-sessions): a client acting as the customer, audited, 15 minutes at most and never refreshed. */
export interface SupportSession {
  customerId: string
  client: ReturnType<typeof createClient>
  sessionId: string
  expiresAt: string
}

/**
 * The page's support session, if it started one. It ends (DELETE /customer/support-sessions/{id},
 * audited) when `end` is called, when another one starts, and when the page is left, so no token
 * outlives what the operator is looking at.
 */
export function useSupportSession() {
  const [session, setSession] = useState<SupportSession | null>(null)
  useEffect(() => {
    if (!session) return
    return () => void client.api.customer['support-sessions']({ id: session.sessionId }).delete()
  }, [session])
  const start = async (customerId: string): Promise<SupportSession> => {
    const granted = await data(client.api.customer['support-sessions'].post({ customerId }))
    const started = {
      customerId,
      client: createClient({ baseUrl: '', tokens: { token: granted.token } }),
      sessionId: granted.sessionId,
      expiresAt: granted.expiresAt,
    }
    setSession(started)
    return started
  }
  return { session, start, end: () => setSession(null) }
}
