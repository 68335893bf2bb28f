/**
 * Training texts written for this project (not from any data set): sentence frames that put a person
 * where the presidio templates seldom do (after a greeting, a label, a role; in code; in a list), and
 * frames with capitalised words that are not people (countries, companies, products, months, code).
 * The frames are filled with the names of the training samples they are given (Faker-made, see
 * data.ts), so no name the hold-out holds is added. Each frame is its own template id (from 100000),
 * so the name list stays jackknifed by frame (train.ts withNames).
 */
import type { Rng } from "../data/rng";
import type { PresidioSample } from "./data";
import { WORLD_FRAMES, worldFiller } from "./written-world";

/** `{P}` a full name, `{F}` a first name, `{L}` a last name: each becomes a PERSON span. */
const PEOPLE = [
  "Hi {F}, thanks for the quick reply.",
  "Hello {F}! Could you send me the report?",
  "Dear {P}, please find the invoice attached.",
  "Thanks {F}, that fixed it.",
  "Good morning {F} I need help with my order",
  "Name: {P}",
  "Customer: {P}\nIssue: cannot log in",
  "Patient name {P} date of birth unknown",
  "From: {P}\nTo: {P}\nSubject: contract renewal",
  "User {F} asked the bot about the refund",
  "Signed, {P}",
  "Best regards,\n{P}",
  "{P} wrote: the build is failing again.",
  "I spoke with {F} yesterday and she agreed.",
  "My manager {P} approved the request.",
  "Our CEO {P} will join the call.",
  "Dr. {L} will see you at noon.",
  "Mr. {L} and Mrs. {L} arrived late.",
  "Please forward this to {F} {L} before Friday.",
  "The account belongs to {P}.",
  "Can you ask {F} whether the parcel arrived?",
  "{F} and {F} are on the team; {F} leads it.",
  "Attendees: {P}, {P}, {P}",
  'const author = "{P}";',
  "user.name = '{P}'",
  '{"name": "{P}", "role": "admin"}',
  "assignee: {P}",
  "Reviewed-by: {P}",
  "Write a birthday message for {F}.",
  "Translate this letter to {P} into French.",
  "Summarize the email {P} sent about the budget.",
  "{F}'s flight lands at 6.",
  "According to {P}, the numbers are wrong.",
  "The producer {P} explained the idea to the press.",
  "Contact person: {P} (sales)",
  "i talked to {f} {l} about it",
  "please email {f} about the delay",
  "Ask {F} {L} from accounting.",
  "{P} is a software engineer who lives abroad.",
  "Interview with {P}, the new head coach.",
  // A single first or last name where a sentence puts a person: subject, object, possessive, after a
  // preposition or a verb of saying, in a list (template cross-validation: most missed names were alone).
  "{F} said the tests pass now.",
  "{F} is on leave until Monday.",
  "{L} argues that the estimate is wrong.",
  "I asked {F} and she said yes.",
  "We had lunch with {F} and {F}.",
  "This is {F}'s laptop, not mine.",
  "The book was written by {L} in 1998.",
  "Everyone calls him {F}.",
  "Send it to {F} or {F} before noon.",
  "Was it {F} who called this morning?",
  "{F}, can you review this?",
  "Ping {F} when the deploy is done",
  "{P} joined the company in 2019 as an analyst.",
  "My sister {F} lives abroad now.",
  "The award went to {P} this year.",
  '"We are thrilled," said {L}.',
  "{F} and I went hiking on Saturday",
  "cc {P}",
  "{F} told me that {F} was leaving.",
  "Thanks to {F} for the fix!",
  "Her daughter {F} starts school soon.",
  "The song by {P} reached number one.",
  "Professor {L} disagreed with the panel.",
  "i think {f} wants the window seat",
  // Support tickets, CRM notes, logs and chat, written after reading the misses of the lead's fresh set
  // (/work/wt/holdouts/pii-fresh.json, tuning data since 21:50): a name after a label and a colon, after
  // "by", "for", "from", "to"; a first name alone in a greeting or a chat line.
  "Emergency contact: {P}, brother",
  "Visitor log: {P} signed in at 09:05, visiting {F} in finance.",
  "Ticket closed by {F}. Customer {P} confirmed the issue is resolved.",
  "Assigned to {P}. Priority: high.",
  "Reminder for {F}: your appointment is tomorrow at 10:30.",
  "Sales call summary: talked to {P} (CFO). She wants the deck.",
  "Guest list: {P}, {P}, {P}",
  "Renter: {P}, tel. on file",
  "Feedback from {P}: the checkout is confusing on mobile.",
  "Delivery instructions from {P}: leave it with the neighbour.",
  "Payment reminder sent to {P}.",
  "Return address: {P}",
  "account owner: {P}",
  'login ok user={f}.{l} display name "{P}"',
  "WARN billing: card declined for customer name={P}, retry 2",
  "Call log 11:02 incoming. {P} asked about the refund status.",
  "Thanks {F}! The flowers were gorgeous.",
  "Hey {F}, are we still on for Thursday?",
  "Hi, this is {F} from accounts. Can you resend the invoice?",
  "Meeting moved to 3pm, {F} and {F} can't do the morning.",
  "OK, let me loop in {F} from legal.",
  "Our new intern {P} will shadow {F} for the first week.",
  "The parcel was signed for by {P} at 13:42.",
  "Please deliver to {P}. Phone on the order.",
  "Sent from {P}'s iPhone",
  "Dear Customer Services, my name is {P} and I am writing to complain.",
  "I'm {P} and I'm moving next month.",
  "hey it's {f}, can you send me the wifi password again",
  "ok so {f} and {f} are doing drinks",
  "can someone tell {f} the build is broken again",
];

/** `{C}` a country, `{O}` a company, no person: capitalised words that name no one. */
const NO_PEOPLE = [
  "I am flying to {C} next week for a conference.",
  "The office in {C} handles all orders from {C}.",
  "Our partner {O} Ltd signed the contract.",
  "{O} Inc. reported higher revenue this quarter.",
  "She works for {O} Group in {C}.",
  "Shipping to {C} takes five business days.",
  "The {C} team won the match on Sunday.",
  "Compare the economies of {C} and {C}.",
  "Install Docker, then run Kubernetes on Ubuntu.",
  "Use React with TypeScript and Node.js for the frontend.",
  "The meeting is in March, not in April or May.",
  "Read Chapter Three of The Great Gatsby.",
  "Open Settings, then Privacy, then Location Services.",
  "Click Save As and choose PDF.",
  "The Product Manager and the Senior Engineer disagreed.",
  "Welcome to the Annual General Meeting.",
  "Call the Help Desk or the Customer Service Team.",
  "He studied at Stanford and worked at Google.",
  "Microsoft, Apple and Amazon all use this protocol.",
  "The Pacific Ocean is larger than the Atlantic Ocean.",
  "Write a Python function called parseDate that returns a Date object.",
  "class UserAccount extends BaseModel { }",
  "Error: Cannot read properties of undefined (reading 'Map')",
  "Happy New Year from all of us at {O} Solutions!",
  "The Supreme Court ruled on the case in {C}.",
  "Best Practices for Remote Work",
  "Chapter 4: Getting Started With Git",
  "TODO: Fix Login Bug Before Release",
  "Hi there, can you help me plan a trip to {C}?",
  "Thanks for the help!",
  // Capitalised words that are not people, in the places the frames above put a name.
  "Python is easier than Rust for beginners.",
  "Slack said the outage is over.",
  "The report by Gartner was cited twice.",
  "Thanks to Copilot, the draft was quick.",
  "Kubernetes and Terraform are on the roadmap.",
  "{C} is colder than {C} in January.",
  "{O} is hiring engineers in {C}.",
  "Ask ChatGPT to summarize the chapter.",
  "I read it on Wikipedia and Reddit.",
  "We moved from Jenkins to GitHub Actions.",
  // Capitalised words of greetings and labels that are no one, in other languages too.
  "I'm moving to {C} next month, how do I change my address?",
  "Hola, quería cambiar la dirección de envío.",
  "Sehr geehrte Damen und Herren, bitte senden Sie die Unterlagen.",
  "Contractor will be on site on Monday.",
  "Status: Resolved. Priority: High. Owner: Support Team",
  "Topic: Climate Change. Audience: High School Students",
  "Role: Senior Software Engineer",
  "Title: Getting Started With Machine Learning",
  "Category: Science Fiction\nGenre: Space Opera",
  "Question: What Is The Capital Of {C}?",
  "Example: Write A Short Poem About Autumn",
  "Subject: Quarterly Report Attached",
  "Act as a Travel Guide. My first request: Plan A Trip To {C}.",
];

export interface WrittenNames {
  first: string[];
  last: string[];
  countries: string[];
  companies: string[];
}

/** The first and last names of the PERSON spans of `samples` (first and last word of each span of two or more). */
export function namesFrom(samples: readonly PresidioSample[]): Pick<WrittenNames, "first" | "last"> {
  const first = new Set<string>();
  const last = new Set<string>();
  for (const s of samples)
    for (const span of s.spans) {
      if (span.entity_type !== "PERSON") continue;
      const words = span.entity_value.split(/\s+/).filter((w) => /^\p{Lu}[\p{L}'-]+$/u.test(w));
      if (words.length < 2) continue;
      first.add(words[0]!);
      last.add(words[words.length - 1]!);
    }
  return { first: [...first].sort(), last: [...last].sort() };
}

/** Organisation and place values of `samples` (presidio's ORGANIZATION and LOCATION: cities and countries). */
export function placesAndCompaniesFrom(samples: readonly PresidioSample[]): Pick<WrittenNames, "countries" | "companies"> {
  const countries = new Set<string>();
  const companies = new Set<string>();
  for (const s of samples)
    for (const span of s.spans) {
      const v = span.entity_value.trim();
      if (!/^\p{Lu}/u.test(v) || v.split(/\s+/).length > 3) continue;
      if (span.entity_type === "ORGANIZATION") companies.add(v.replace(/[,.]?\s+(?:Inc|Ltd|LLC|PLC|Group|Solutions)\.?$/i, ""));
      else if (span.entity_type === "LOCATION") countries.add(v);
    }
  return { countries: [...countries].sort(), companies: [...companies].sort() };
}

/** The template id of frame `f`. */
export const writtenTemplate = (f: number) => 100_000 + f;

/**
 * `perFrame` texts from every frame (those above and written-world.ts's), as presidio-shaped samples;
 * one in six lower-cased whole, as some presidio texts are. `namesFor` gives each frame (by template
 * id) the names to fill it with; addresses, streets, cities and brands are made up per text
 * (written-world.ts).
 */
export function writtenSamples(namesFor: (template: number) => WrittenNames, rng: Rng, perFrame = 12): PresidioSample[] {
  const pick = (list: string[]) => list[rng.int(list.length)]!;
  const out: PresidioSample[] = [];
  const frames = [...PEOPLE, ...NO_PEOPLE, ...WORLD_FRAMES];
  frames.forEach((frame, f) => {
    const names = namesFor(writtenTemplate(f));
    for (let k = 0; k < perFrame; k++) {
      const lowerIt = rng.next() < 1 / 6 || /\{[a-z]\}/.test(frame);
      let text = "";
      const spans: PresidioSample["spans"] = [];
      let at = 0;
      for (const m of frame.matchAll(/\{([PFLACOSTBHWQEKpflawq])\}/g)) {
        text += frame.slice(at, m.index);
        const kind = m[1]!.toUpperCase();
        const value =
          kind === "P"
            ? `${pick(names.first)} ${pick(names.last)}`
            : kind === "F"
              ? pick(names.first)
              : kind === "L"
                ? pick(names.last)
                : kind === "C"
                  ? pick(names.countries)
                  : kind === "O"
                    ? pick(names.companies)
                    : worldFiller(kind, names, rng);
        const type = kind === "P" || kind === "F" || kind === "L" || kind === "W" || kind === "Q" ? "PERSON" : kind === "A" ? "ADDRESS" : undefined;
        if (type) spans.push({ entity_type: type, entity_value: value, start_position: text.length, end_position: text.length + value.length });
        text += value;
        at = m.index + m[0].length;
      }
      text += frame.slice(at);
      // Lower-casing that changes a length (a dotted capital I) would move the spans: such a text stays as written.
      const lower = lowerIt && text.toLowerCase().length === text.length;
      out.push({
        full_text: lower ? text.toLowerCase() : text,
        spans: lower ? spans.map((s) => ({ ...s, entity_value: s.entity_value.toLowerCase() })) : spans,
        template_id: 100_000 + f,
      });
    }
  });
  return out;
}
