/** Shared bits of the engagement pages (community, messaging, notifications, site services, webhooks, monitored sites); what other areas use too is in ../ui. */

/** A state word with a colour and its text (colour is never the only cue). */
export function Badge({ tone, children }: { tone: 'good' | 'bad' | 'neutral' | 'warn'; children: string }) {
  return <span class={`badge ${tone}`}>{children}</span>
}

export function percent(n: number | null | undefined): string {
  return n == null ? '—' : `${n.toFixed(2)}\u00a0%`
}

export function ms(n: number | null | undefined): string {
  return n == null ? '—' : `${Math.round(n)}\u00a0ms`
}
