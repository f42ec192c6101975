/**
 * Shared pieces for the benches in bench/: a real server child process, wrk runs with parsed
 * figures, and a throwaway PostgreSQL database. Everything here is loopback-only and bounded in
 * time; whatever a bench starts is stopped by `cleanup()` (also on SIGINT/SIGTERM and on exit).
 */
export * from './support/cleanup'
export * from './support/utils'
export * from './support/server'
export * from './support/wrk'
export * from './support/postgres'
export * from './support/backends'
export * from './support/cpu'
export * from './support/app'
export * from './support/cli'
