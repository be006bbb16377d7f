/** Names and versions reported by the engine. */
export const ENGINE_NAME = 'AdMonitor Desk'
export const ENGINE_VERSION = '0.1.0'
/** The IP library named in campaigns' linked_iplib. */
export const IP_LIBRARY = 'IPlib-Region-ip2region'
