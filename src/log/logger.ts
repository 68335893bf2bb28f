import pino, { type Logger, type DestinationStream } from "pino";

export type { Logger };

/**
 * Structured JSON logs, one object per line. Paths that could carry a credential are redacted as a
 * second line of defence; the first is that no code logs a key value or the secret at all.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { svc: "svc" },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: {
        paths: ["authorization", "headers.authorization", "key", "secret", "*.authorization", "*.key", "*.secret", "*.apiKey"],
        censor: "[redacted]",
      },
    },
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
}

/** Resolves once every line logged so far has been handed to the OS; for the last lines before exit. */
export function flushLog(log: Logger): Promise<void> {
  return new Promise((resolve) => log.flush(() => resolve()));
}
