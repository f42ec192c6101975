/** Reverse-domain identifiers: at least two dot-separated labels of [a-z0-9-], at most 253 characters. */
export const RDID_PATTERN = '^(?=.{3,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$'

/** One rdid label: what slugs of organizations, namespaces and ecosystems must be. */
export const LABEL_PATTERN = '^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$'

/** Namespace prefixes: `org.<slug>` for organizations, `user.<id>` for an account's own. */
export const orgPrefix = (namespaceSlug: string) => `org.${namespaceSlug}`
export const personalPrefix = (userId: string) => `user.${userId.replaceAll('-', '')}`
/** The identifier of an organization itself (its namespace holds the `org.` one). */
export const organizationRdid = (slug: string) => `organization.${slug}`

/** True when `rdid` lies strictly under `prefix` (`org.acme.x` is under `org.acme`). */
export function isUnder(rdid: string, prefix: string): boolean {
  return rdid.startsWith(`${prefix}.`)
}
