import { stem } from "./facets";
import { SynonymTable } from "./synonyms";

/**
 * Words that ask for the same thing in the requests a semantic cache sees most (support and how-to
 * questions: "How do I update my email?" / "How do I change my email?", "Do you ship to Norway?" /
 * "Do you deliver to Norway?"). Written by hand for svc (issue 24, fourth session), not learned: the
 * synonyms learned from the STS pairs paired words that are related but ask different things.
 *
 * A group lists words, then after " | " the words of which both prompts must share one for the group
 * to apply: "change" and "update" ask the same of "my email" but not of "the app" (a new version),
 * "book" and "reserve" the same of "a table" but not of "a library book". Only words that replace
 * each other in the same sentence; a word and its hypernym ("dog" / "animal"), a sister ("Saturday"
 * / "Sunday") or an antonym never share a group (bench/cache-eval.ts's WordNet classes check the
 * groups against WordNet's antonyms, sister terms, hypernyms and hyponyms: 0 false hits).
 */
/**
 * Not "photo" or "profile" (edit a profile photo is retouch, change it is replace), "phone" (update it is new software, change it a new
 * phone) or "number" (a carrier changes a number; a user updates the one on file).
 */
const PERSONAL_DATA =
  "email address password username name detail details card setting settings plan method information info pin preference preferences nickname signature";

export const REQUEST_SYNONYM_WORDS: readonly string[] = [
  `change changed changing update updated updating modify modified edit edited alter | ${PERSONAL_DATA}`,
  "delete deleted deleting remove removed removing erase | account profile photo photos picture pictures file files message messages comment comments post posts history data card contact contacts review address",
  "item items product products",
  "ship ships shipped shipping deliver delivers delivered delivery deliveries",
  "buy buying purchase purchased purchasing",
  "choose chose choosing select selected selecting",
  "find locate",
  "see view | history statement statements invoice invoices order orders balance status payment payments transaction transactions receipt receipts bill bills account usage",
  "problem problems issue issues",
  "price prices cost costs",
  "begin start",
  "fix repair",
  "big large",
  "benefit benefits advantage advantages",
  "register enroll enrol | course class classes program programme event",
  "book booked booking reserve reserved reservation | table room seat flight ticket tickets appointment hotel car class session",
  "reject rejected decline declined | card payment transaction",
  "cancel terminate | subscription contract plan membership service",
  "photo photos picture pictures",
  "help assist",
  "use enter redeem apply | code codes coupon coupons voucher vouchers promo discount",
  "check see view | balance status history statement",
  "submit file make | claim claims complaint complaints",
  "make book | appointment appointments reservation reservations",
  "luggage baggage",
  "lost missing | luggage baggage bag bags package parcel item order",
  "movie movies film films",
  "watch view | movie movies film films show shows episode episodes video videos",
  "colleague colleagues coworker coworkers",
  "plan subscription | cancel cancelled canceling cancelling renew renewed upgrade upgraded downgrade downgraded pause paused",
  "request ask | refund refunds",
  "option options method methods | payment payments",
  "user users member members | team teams workspace workspaces group groups",
];

function stemGroup(words: string): string {
  return [...new Set(words.split(" ").map((w) => stem(w)))].join(" ");
}

/** The groups as the verifier compares words: stems ("chang updat modifi ... | email address ..."). */
export const REQUEST_SYNONYM_GROUPS: readonly string[] = REQUEST_SYNONYM_WORDS.map((g) => g.split(" | ").map(stemGroup).join(" | "));

/** The table the cache verifies with unless told otherwise; an operator's file adds to it (loadSynonyms). */
export const SHIPPED_SYNONYMS = new SynonymTable(REQUEST_SYNONYM_GROUPS);
