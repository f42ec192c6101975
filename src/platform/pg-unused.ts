/**
 * What the server bundle (src/bundle.ts) gives pg-boss for `pg`: the queue hands pg-boss the
 * project's own database client (platform/queue.ts), so pg-boss never opens a pool or a client of
 * its own, and node-postgres (about 11 MB resident and 20–35 ms to load) stays out of the bundle.
 * The sources (SERVER_BUNDLE=off, the tests) load the real one.
 */
function unused(): never {
  throw new Error('pg-boss opened a database connection of its own: the queue gives it the database client')
}

export default {
  Pool: class {
    constructor() {
      unused()
    }
  },
  Client: class {
    constructor() {
      unused()
    }
  },
}
