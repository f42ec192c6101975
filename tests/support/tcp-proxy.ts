import type { Socket } from 'bun'

/**
 * A TCP relay on 127.0.0.1 in front of `target`: `freeze()` stops relaying in both directions while
 * every connection stays open, so the server behind looks alive and never answers (a database
 * stalled mid-conversation, a network partition without resets).
 */
export function tcpProxy(target: { hostname: string; port: number }) {
  let frozen = false
  const peers = new Map<Socket<unknown>, Socket<unknown>>()
  const pending = new Map<Socket<unknown>, Uint8Array[]>()
  const relay = (to: Socket<unknown> | undefined, data: Uint8Array) => {
    if (!frozen && to) to.write(data)
  }
  const server = Bun.listen({
    hostname: '127.0.0.1',
    port: 0,
    socket: {
      open(client) {
        pending.set(client, [])
        void Bun.connect({
          ...target,
          socket: {
            open(upstream) {
              peers.set(client, upstream)
              peers.set(upstream, client)
              for (const chunk of pending.get(client) ?? []) relay(upstream, chunk)
              pending.delete(client)
            },
            data: (upstream, data) => relay(peers.get(upstream), data),
            close: (upstream) => void peers.get(upstream)?.end(),
          },
        })
      },
      data(client, data) {
        const upstream = peers.get(client)
        if (upstream) relay(upstream, data)
        else pending.get(client)?.push(new Uint8Array(data))
      },
      close: (client) => void peers.get(client)?.end(),
    },
  })
  return {
    port: server.port,
    freeze: () => void (frozen = true),
    stop: () => {
      for (const socket of peers.keys()) socket.end()
      server.stop(true)
    },
  }
}
