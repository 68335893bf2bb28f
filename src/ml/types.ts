/** The task classes routing decides on (CONTRACT.md: routing_reason values `<class>_task`, `faq_pattern`, `chat_default`). */
export const TASK_CLASSES = ["faq", "code", "math", "reasoning", "creative", "summarize", "extract", "translate", "chat"] as const;
export type TaskClass = (typeof TASK_CLASSES)[number];

/** What the task classifier says of one prompt. */
export interface TaskPrediction {
  task: TaskClass;
  /** Probability per class; sums to 1. */
  probs: Record<TaskClass, number>;
  /** Probability of the top class. */
  confidence: number;
  /** 0 (trivial) .. 1 (hard). */
  difficulty: number;
}

/** Text to a unit-length vector; cosine similarity is the dot product. */
export interface Embedder {
  readonly dimensions: number;
  embed(text: string): Promise<Float32Array>;
}
