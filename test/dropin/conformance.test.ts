import { describe, expect, test } from "bun:test";
import { clientsUnderTest, CLIENT_NAMES } from "./clients";
import { dropInRig } from "./support";
import type { MockProvider } from "../mocks/mock-server";

/**
 * The conformance suite: each client, unchanged but for base URL and key, against svc in front of a mock
 * of each provider's wire format. Test names are "<client> > <provider> > <feature>";
 * `bun test/dropin/compat-table.ts` runs this file and writes the README's compatibility table from them.
 */
const rig = dropInRig();
const MODELS = { openai: "gpt-4o-mini", anthropic: "claude-3-5-haiku", gemini: "gemini-2.0-flash" } as const;
const PNG = "data:image/png;base64,iVBORw0KGgo=";
let n = 0;
const fresh = (text: string) => `${text} (${++n})`;

const mockOf = (p: keyof typeof MODELS): MockProvider => rig[p];

for (const name of CLIENT_NAMES) {
  describe(name, () => {
    const client = () => clientsUnderTest(rig.baseURL, rig.admin.key, { responses: true }).find((c) => c.name === name)!;
    const run = test;
    for (const provider of Object.keys(MODELS) as (keyof typeof MODELS)[]) {
      const model = MODELS[provider];
      describe(provider, () => {
        run("chat", async () => {
          expect(await client().chat(model, fresh("Say hello to the team"))).toContain("heard: Say hello to the team");
        });

        run("streaming", async () => {
          expect(await client().stream(model, fresh("Stream a greeting please"))).toContain("heard: Stream a greeting please");
        });

        run("tool call", async () => {
          mockOf(provider).toolCall = { id: "call_w1", name: "get_weather", arguments: { city: "Paris" } };
          try {
            expect(await client().toolCall(model, fresh("What is the weather in Paris?"))).toEqual({ name: "get_weather", args: { city: "Paris" } });
          } finally {
            mockOf(provider).toolCall = undefined;
          }
        });

        run("tool loop", async () => {
          mockOf(provider).toolCall = { id: "call_w2", name: "get_weather", arguments: { city: "Oslo" } };
          const ran: string[] = [];
          try {
            const text = await client().toolLoop(model, fresh("Weather in Oslo?"), ({ city }) => (ran.push(city), `sunny in ${city}`));
            expect(ran).toEqual(["Oslo"]);
            expect(text).toContain("heard:");
          } finally {
            mockOf(provider).toolCall = undefined;
          }
        });

        run("structured output (json_schema)", async () => {
          mockOf(provider).fixedText = JSON.stringify({ city: "Lyon", population: 522000 });
          try {
            expect(await client().structured(model, fresh("Name a French city and its population"))).toEqual({ city: "Lyon", population: 522000 });
          } finally {
            mockOf(provider).fixedText = undefined;
          }
        });

        run("image input", async () => {
          expect(await client().image(model, fresh("What is in this image?"), PNG)).toContain("heard: What is in this image?");
          const body = JSON.stringify(mockOf(provider).requests.at(-1)!.body);
          expect(body).toContain("iVBORw0KGgo=");
        });
      });
    }
  });
}
