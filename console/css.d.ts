/** Stylesheets are bundled by Bun (src/modules/console/assets.ts). */
declare module '*.css'
