import { expect, test } from "bun:test";
import { OpenAIProvider } from "../../src/providers/openai/provider";
import { startOpenAIMock } from "../mocks/openai-mock";
import { collect, providerRequest } from "./fixtures";

test("the OpenAI mock runs as its own process, prints its URL as one JSON line and serves streams", async () => {
  const child = Bun.spawn([process.execPath, "test/mocks/openai-mock.ts", "--port", "0", "--latency-ms", "20", "--chunk-delay-ms", "5"], {
    cwd: `${import.meta.dir}/../..`,
    stdout: "pipe",
    stderr: "inherit",
  });
  try {
    const reader = child.stdout.getReader();
    let line = "";
    while (!line.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      line += new TextDecoder().decode(value);
    }
    reader.releaseLock();
    const { url } = JSON.parse(line.trim()) as { url: string };
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const provider = new OpenAIProvider({ name: "openai", baseUrl: url });
    const out = await collect(provider.stream(providerRequest("gpt-4o-mini-2024-07-18")));
    expect(out.text).toContain("What is the capital of France?");
    expect(out.usage?.completion_tokens).toBeGreaterThan(0);
  } finally {
    child.kill();
    await child.exited;
  }
});

test("a mock started with record: false answers as usual and keeps no request log (the benchmark's mock answers millions)", async () => {
  const mock = startOpenAIMock({ record: false });
  try {
    const provider = new OpenAIProvider({ name: "openai", baseUrl: `${mock.url}/v1` });
    const out = await collect(provider.stream(providerRequest("gpt-4o-mini-2024-07-18")));
    expect(out.text).toContain("What is the capital of France?");
    expect(mock.requests).toHaveLength(0);
    expect(mock.replies).toHaveLength(0);
  } finally {
    mock.stop();
  }
});
