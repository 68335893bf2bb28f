/**
 * Prompts the event loop's optimizer runs at start (Optimizer.warm), written for this purpose: one of
 * each kind of traffic the stages treat differently (social framing around a task, code in a fence,
 * numbers and units, a pasted text to summarise, a translation, a short question, a long plain one),
 * so that compression, scoring, PII, embedding, classification and routing have all been compiled by
 * the JIT before a real request waits for them. `{n}` is replaced by the run's number, so no two runs
 * are the same request.
 */
export const WARM_PROMPTS: readonly string[] = [
  "Hi there! I hope you're doing well today. I was wondering if you could possibly help me write a short haiku about the sea at dawn, number {n} in a series I'm making for my grandmother. Thanks so much in advance, you're a lifesaver!",
  "Can you review this function and tell me why it returns undefined for empty arrays? Please keep the fix minimal and don't use any library.\n\n```js\nfunction maxOf(xs) {\n  let best;\n  for (const x of xs) if (best === undefined || x > best) best = x;\n  return best;\n}\nconsole.log(maxOf([{n}, 4, 9]));\n```\n\nAlso explain the time complexity in one sentence.",
  "A train leaves Lyon at 08:15 and travels {n} km at an average speed of 92 km/h, stopping twice for 7 minutes each. A second train leaves 25 minutes later at 110 km/h on the same line. At what time does the second train catch up, and how far from Lyon is that? Show each step and give the answer in hours and minutes.",
  'Summarize the following email in three bullet points for my manager, keeping every date and amount exactly as written:\n\n"Dear team, the quarterly review moved to Thursday 14 March at 10:30. Please send your figures by Monday; the budget for travel is capped at $2,400 per person and request #{n} for the new laptops was approved. Maria will present the roadmap and John will cover hiring. Let me know if the new room does not work for you. Best, Anna"',
  'Translate into German, keeping the formal register and the product names unchanged: "Your order {n} of the Atlas Pro headphones has shipped and will arrive within three working days. If you have any questions, reply to this message."',
  "What is the capital of Australia, and why isn't it Sydney? Answer in two sentences, question {n}.",
  "I'm planning a week-long trip to Portugal in October with my partner, who is vegetarian, and we have a budget of about {n}00 euros for food and transport. We want to see Lisbon and Porto, avoid renting a car, and spend at least one day near the coast. Could you suggest a day-by-day plan with train times, a few restaurants that are good for vegetarians, and tips for saving money on transport passes? We are not into nightlife, but we love museums, markets and long walks. Please also tell us which days are best for the Douro valley and whether we should book anything in advance.",
];
