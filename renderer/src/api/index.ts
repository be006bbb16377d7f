/** The one API client of the renderer, over the transport chosen once (STYLE H5). */
import { ApiClient } from './client'
import { defaultTransport } from './transport'

export const api = new ApiClient(defaultTransport())

/** The desktop app (preload bridge): the main process signs requests in as the local account. */
export const isDesktop = (): boolean => typeof window !== 'undefined' && !!window.engine
