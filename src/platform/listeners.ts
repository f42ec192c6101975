import type { Db } from './db'

export type Listener<Args extends unknown[]> = (tx: Db, ...args: Args) => Promise<void>

/**
 * Callbacks other areas register to run inside a service's own transaction (the site feed, outbound
 * webhooks): what they write commits or rolls back with the change they describe.
 */
export class Listeners<Args extends unknown[]> {
  private readonly listeners: Listener<Args>[] = []

  add(listener: Listener<Args>): void {
    this.listeners.push(listener)
  }

  async run(tx: Db, ...args: Args): Promise<void> {
    for (const listener of this.listeners) await listener(tx, ...args)
  }
}
