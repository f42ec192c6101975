import { useEffect, useState } from 'preact/hooks'

/** Shared bits of the engagement pages (community, messaging, notifications, site services, webhooks, monitored sites); what other areas use too is in ../ui. */

/** The part of the hash after `prefix/` (a detail id), or null; follows hash changes. */
export function useSubpath(prefix: string): string | null {
  const read = () => {
    const rest = location.hash.startsWith(`${prefix}/`) ? location.hash.slice(prefix.length + 1) : ''
    return rest ? decodeURIComponent(rest.split(/[/?]/)[0]!) : null
  }
  const [sub, setSub] = useState(read)
  useEffect(() => {
    const onChange = () => setSub(read())
    addEventListener('hashchange', onChange)
    return () => removeEventListener('hashchange', onChange)
  }, [prefix])
  return sub
}

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
