/**
 * Responses kept for previous_response_id: each one's conversation (input and output as chat messages,
 * instructions excluded, as OpenAI does not carry them over), per app, in this process's memory, the
 * most recent `capacity` of them. A response from another node or before a restart is not found.
 */
export class ResponseStore {
  private readonly entries = new Map<string, { appId: string; messages: Record<string, unknown>[] }>();
  /** Output items by id, for input items of type item_reference (the AI SDK sends those for stored responses). */
  private readonly items = new Map<string, { appId: string; item: Record<string, unknown> }>();

  constructor(private readonly capacity = 10_000) {}

  get(appId: string, id: string): Record<string, unknown>[] | undefined {
    const e = this.entries.get(id);
    return e && e.appId === appId ? e.messages : undefined;
  }

  set(appId: string, id: string, messages: Record<string, unknown>[], output: readonly Record<string, unknown>[]): void {
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(id, { appId, messages });
    for (const item of output) {
      if (this.items.size >= this.capacity * 4) this.items.delete(this.items.keys().next().value!);
      this.items.set(item.id as string, { appId, item });
    }
  }

  item(appId: string, id: string): Record<string, unknown> | undefined {
    const e = this.items.get(id);
    return e && e.appId === appId ? e.item : undefined;
  }
}
