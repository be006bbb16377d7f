/** Where the engine writes what went wrong and what it did (the CLI's and the app's console). */

export interface Logger {
  error(message: string, cause?: unknown): void
  info(message: string): void
}

export const consoleLogger: Logger = {
  error: (message, cause) => console.error(`[engine] ${message}`, cause ?? ''),
  info: (message) => console.error(`[engine] ${message}`),
}
