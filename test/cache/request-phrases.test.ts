import { describe, expect, test } from "bun:test";
import { compareFacets, extractFacets, type WordSimilarity } from "../../src/pipeline/cache";
import { canonicalRequest, stem } from "../../src/pipeline/cache/facets";
import { withRequestPhrases } from "../../src/pipeline/cache/request-phrases";
import { SHIPPED_SYNONYMS } from "../../src/pipeline/cache/request-synonyms";

/**
 * Issue 24, sixth session: support requests in the words people swap for one another (request-phrases.ts),
 * stated wishes and forgotten passwords read as the question they ask, "Can I" before any support action,
 * and the synonym groups for other services (request-synonyms.ts). Each relaxation on both sides: the
 * rewording it serves and the near misses written against it (more in bench/data/cache-dev-pairs2.json).
 * The table alone decides swapped words here, as before any word is embedded.
 */
const words: WordSimilarity = { vectors: new Map(), minSimilarity: 0.3, synonyms: SHIPPED_SYNONYMS };

function compare(a: string, b: string) {
  return compareFacets(extractFacets(a), extractFacets(b), words);
}

/** Served both ways. */
const SERVED: [string, string][] = [
  // Cancelling a subscription-like thing, in other verbs.
  ["How do I cancel my subscription?", "How do I stop my subscription?"],
  ["How do I cancel my membership?", "How do I end my membership?"],
  ["How do I cancel my contract?", "How do I terminate my contract?"],
  ["How do I cancel my plan?", "how to discontinue my plan"],
  ["How do I quit my subscription?", "How do I cancel my subscription?"],
  ["How do I cancel my subscription?", "How can I end my membership?"],
  ["How do I cancel my policy?", "How do I cancel my plan?"],
  ["How do I call off my booking?", "How do I cancel my reservation?"],
  ["How do I pause my subscription?", "How do I put my subscription on hold?"],
  // Particle verbs and phrases of one action on one kind of object.
  ["How do I top up my card?", "How do I add money to my card?"],
  ["How do I top up my card?", "How do I reload my card?"],
  ["How do I sign up for a course?", "How do I enroll in a course?"],
  ["How do I drop a class?", "How do I unenroll from a class?"],
  ["How do I get back a deleted file?", "How do I restore a deleted file?"],
  ["How do I return a product?", "How can I send back a product?"],
  ["How can I remove the tip?", "How do I take off the tip?"],
  ["How do I contact support?", "How can I get in touch with support?"],
  ["How do I stop sharing a folder?", "How do I unshare a folder?"],
  ["How do I get rid of fruit flies?", "How do I remove fruit flies?"],
  ["How do I unsubscribe from the newsletter?", "How do I stop getting the newsletter?"],
  // A stated wish for a support action, a forgotten password, a gerund after "go about" / "need help".
  ["I want to cancel my subscription", "How do I cancel my subscription?"],
  ["I'd like to delete my account", "How do I delete my account?"],
  ["I need to change my email address", "How do I change my email address?"],
  ["I need help cancelling my subscription", "How do I cancel my subscription?"],
  ["How would I go about cancelling my order?", "How do I cancel my order?"],
  ["Is there any way I can cancel my order?", "How can I cancel my order?"],
  ["I forgot my password and can't log in", "How do I reset my password?"],
  ["I can't remember my password", "How do I reset my password?"],
  ["I forgot my PIN", "How do I reset my PIN?"],
  ["What should I do if I forgot my password?", "How do I reset my password?"],
  ["Help me cancel my subscription", "How do I cancel my subscription?"],
  ["Can you help me reset my PIN?", "How do I reset my PIN?"],
  ["steps to delete my account", "How do I delete my account?"],
  // "Do you offer" / "are there any" ask "is there".
  ["Do you offer a student discount?", "Is there a student discount?"],
  ["Are there any student discounts?", "Is there a student discount?"],
  // Synonym groups for other services, each where both prompts speak of what it needs.
  ["How do I fix a flat bike tire?", "How do I fix a flat bicycle tyre?"],
  ["How do I cancel my dental appointment?", "How do I cancel my dentist appointment?"],
  ["How do I block someone?", "How do I block a user?"],
  ["How do I add a tip?", "How do I leave a tip?"],
  ["How do I pay a parking ticket?", "How do I pay a parking fine?"],
  ["How do I cancel my ride?", "How do I cancel my trip?"],
  ["When are my dog's shots due?", "When are my dog's vaccinations due?"],
  ["How do I file my tax return?", "How do I submit my tax return?"],
  ["How do I rate my driver?", "How do I leave a rating for my driver?"],
  ["How do I create a playlist?", "How do I make a playlist?"],
  ["How do I apply for a parking permit?", "How do I get a parking permit?"],
  ["Where do I choose my seat?", "How do I choose my seat?"],
  ["How do I pause my membership?", "How do I freeze my membership?"],
  // Issue 24, ninth session: contractions without apostrophes, more "where do I" actions, "how much do you charge", "do you take",
  // "the X on my Y", "share X with someone", "... on my account", "receive a X", "one of your Xs", "talk to a human", tracking.
  ["whats the way to share an album", "How do I share an album?"],
  ["whats the price of a scooter ride", "How much does a scooter ride cost?"],
  ["I dont have access to my account", "I don't have access to my account"],
  ["i cant login", "I can't log in"],
  ["im locked out of my account", "I'm locked out of my account"],
  ["Where do I report a power outage?", "How do I report a power outage?"],
  ["where can I reload my lift card", "How do I reload my lift card?"],
  ["Where do I register my child for the league?", "How do I register my child for the league?"],
  ["How much do you charge for a dog walk?", "How much does a dog walk cost?"],
  ["How much do you charge for a dog walk?", "what's the price of a dog walk?"],
  ["Do you take my insurance?", "Do you accept my insurance?"],
  ["Does your clinic take walk-ins?", "Does your clinic accept walk-ins?"],
  ["How do I schedule a dog walk?", "How do I book a dog walk?"],
  ["How do I book a lesson with a tutor?", "how do i schedule a lesson with a tutor"],
  ["how can I recover deleted photos", "How do I restore deleted photos?"],
  ["how do i hand over my keys to the walker", "how can i give my keys to the walker"],
  // Sharing is with someone; what is changed in a service is on the user's account.
  ["How can I share a file with someone?", "How do I share a file?"],
  ["how do I share my folder with someone else", "How do I share my folder?"],
  ["How can I change the email address on my account?", "How do I change my email address?"],
  ["how do i switch on two-factor authentication on my account", "How do I enable two-factor authentication?"],
  ["How do I change my email address?", "how to change my email"],
  ["how do i set up two-factor authentication", "How do I enable two-factor authentication?"],
  ["how old do you need to be to ride a scooter", "How old must I be to ride a scooter?"],
  ["How do I receive a refund?", "How do I get a refund?"],
  ["How do I obtain a parking permit?", "How do I get a parking permit?"],
  ["What's the way to unlock one of your scooters?", "How do I unlock a scooter?"],
  ["How do I cancel one of my classes?", "How do I cancel a class?"],
  // Issue 24, tenth session: one of the bikes / of my folders the user acts on is any one; "talk to a human at" a company.
  ["how can I unlock one of the bikes", "How do I unlock a bike?"],
  ["how do I share one of my folders with someone else", "How do I share a folder with someone?"],
  ["How do I talk to a human at Comcast?", "How do I contact support at Comcast?"],
  ["How can I talk to a human?", "How do I contact customer support?"],
  // review8k: the rewrites narrowed by cache-probe10 still serve these.
  ["How can I book a walk for my dog?", "How can I schedule a walk for my dog?"],
  ["Where is my parcel?", "Where is my order?"],
  ["I want to talk to a live agent", "I want to contact support"],
  ["Do you take American Express?", "Do you accept American Express?"],
  ["I was unable to log in", "I was not able to log in"],
  ["How do I change my email on the website?", "How do I change my email address on the website?"],
  ["Where can I see the status of my order?", "How do I track my order?"],
  ["how to track my package", "How do I track my order?"],
  ["How long will the installation take?", "How long does the installation take?"],
  ["How much would it cost to fix my screen?", "How much does it cost to fix my screen?"],
  ["I'm unable to log in", "I can't log in"],
  ["I am not able to log in", "I can't log in"],
  ["Why am I unable to log in?", "Why can't I log in?"],
  // cache9fix: what the narrowed rules still serve (a means of payment or an admission; a setting changed on the account;
  // the user's own thing at one of the service's places; handing over to someone; a copy obtained).
  ["Do you take Visa?", "Do you accept Visa?"],
  ["Do you take walk-ins on Sundays?", "Do you accept walk-ins on Sundays?"],
  ["How do I update the phone number on my account?", "How do I update my phone number?"],
  ["Can I pick up my order at one of your stores?", "Can I pick up my order at a store?"],
  ["How do I hand over my badge to security?", "How do I give my badge to security?"],
  ["How can I obtain a copy of my lease?", "How can I get a copy of my lease?"],
  // Giving or showing to the one who asks is the request's frame, not a direction.
  ["Give me an example of a metaphor", "Show me an example of a metaphor"],
  // One's giving is the other's getting.
  ["How do I give the cleaner my spare key?", "How does the cleaner get my spare key?"],
];

/** "Can I ...?" is served by the answer to "How do I ...?" (query first), not the other way round. */
const ONE_WAY: [query: string, cached: string][] = [
  ["Can I reschedule my appointment?", "How do I reschedule my appointment?"],
  ["Can I skip my next delivery?", "How do I skip my next delivery?"],
  ["Can I cancel my membership?", "How do I end my membership?"],
];

/** Refused both ways: what each relaxation must not reach. */
const REFUSED: [string, string][] = [
  // Issue 24, tenth session (bench/data/cache-probe10.json): one of the Xs is a particular one outside a user's action on the
  // service's things.
  ["Is Pluto one of the planets?", "Is Pluto a planet?"],
  ["Choose one of the options", "Choose an option"],
  ["Name one of my ancestors", "Name an ancestor"],
  // Verbs of another direction are never rewritten into "cancel" or each other.
  ["How do I stop my subscription?", "How do I pause my subscription?"],
  ["How do I end my membership?", "How do I freeze my membership?"],
  ["How do I terminate my contract?", "How do I renew my contract?"],
  ["How do I stop my plan?", "How do I resume my plan?"],
  ["How do I put my subscription on hold?", "How do I cancel my subscription?"],
  ["How do I add money to my card?", "How do I take money off my card?"],
  ["How do I drop a class?", "How do I add a class?"],
  ["How do I stop sharing a folder?", "How do I share a folder?"],
  ["How do I add a tip?", "How do I remove a tip?"],
  ["How do I block someone?", "How do I unblock someone?"],
  // "end" and "stop" cancel only a subscription, plan, membership or contract.
  ["How do I end my ride?", "How do I cancel my ride?"],
  ["How do I stop the music?", "How do I cancel the music?"],
  ["How do I end my trip?", "How do I cancel my trip?"],
  ["How do I stop a payment?", "How do I cancel a payment?"],
  ["How do I end my shift?", "How do I cancel my shift?"],
  // The rest of the prompt still counts.
  ["How do I stop my subscription from renewing?", "How do I cancel my subscription?"],
  ["How do I stop my subscription for a month?", "How do I cancel my subscription?"],
  ["How do I end my Gold membership?", "How do I cancel my Silver membership?"],
  ["How do I cancel my subscription?", "How do I cancel my account?"],
  ["How do I upgrade my membership to premium?", "How do I upgrade my storage plan?"],
  ["How do I leave a course?", "How do I leave a course review?"],
  ["How do I top up my card?", "How do I top up my phone?"],
  ["How do I reach customer service?", "How do I reach the station?"],
  // Wishes: only support actions, only the wish, and never another question form.
  ["I need to change my email", "Should I change my email?"],
  ["I want to cancel my subscription", "I don't want to cancel my subscription"],
  ["I want to cancel my subscription", "Why did you cancel my subscription?"],
  ["I want to learn Python", "How do I learn Python?"],
  ["I want to die", "How do I die?"],
  ["I want to cancel my subscription", "I want to cancel my subscription but keep my account"],
  ["I want to pause my subscription", "I want to cancel my subscription"],
  // Forgotten secrets: a password, PIN or passcode, and only its reset.
  ["I forgot my username", "How do I reset my password?"],
  ["I forgot my password", "How do I change my password?"],
  ["I forgot my password hint", "How do I reset my password?"],
  ["I can't change my password", "How do I reset my password?"],
  ["I can't log in", "How do I reset my password?"],
  ["What should I do if I forgot my username?", "How do I reset my password?"],
  ["Help me cancel my subscription", "Should I cancel my subscription?"],
  ["Help me choose a plan", "How do I choose a plan?"],
  ["Help me delete my account", "Help me recover my account"],
  // "Do you offer" asks the service, not someone else, and is no "how".
  ["Do you offer a student discount?", "Do they offer a student discount?"],
  ["Do you offer a student discount?", "Do you offer a senior discount?"],
  ["Is there a student discount?", "How do I get a student discount?"],
  // The groups' words apart from their context, and their sisters.
  ["How do I fix a flat bike tire?", "How do I fix a flat motorcycle tire?"],
  ["How do I cancel my dental appointment?", "How do I cancel my doctor appointment?"],
  ["How do I block a user?", "How do I block a website?"],
  ["How do I leave a tip?", "How do I leave a review?"],
  ["How do I pay a parking ticket?", "How do I buy a train ticket?"],
  ["How do I pay a fine?", "How do I pay for a ticket?"],
  ["How do I cancel my policy?", "What is your privacy policy?"],
  ["How do I cancel my trip?", "How do I plan my trip?"],
  ["How do I file my tax return?", "How do I file a complaint?"],
  ["When are my dog's shots due?", "When are my cat's shots due?"],
  ["How do I leave a rating for my driver?", "How do I leave a tip for my driver?"],
  ["How do I make an account?", "How do I make a payment?"],
  ["How do I apply for a parking permit?", "How do I apply for a job?"],
  ["How do I apply for a card?", "How do I apply a card to my order?"],
  ["How do I freeze my card?", "How do I pause my card?"],
  ["How do I pause my membership?", "How do I resume my membership?"],
  // "where do I" is a place for what happens somewhere: dropping off, picking up, withdrawing cash, printing.
  ["Where do I drop off my package?", "How do I drop off my package?"],
  ["Where can I pick up my order?", "How do I pick up my order?"],
  ["Where can I withdraw cash?", "How do I withdraw cash?"],
  ["How do I refill my dog's prescription?", "How do I refill my cat's prescription?"],
  // Issue 24, ninth session: the look-alikes of the relaxations above.
  ["How long did the installation take?", "How long does the installation take?"],
  ["How much did it cost to fix my screen?", "How much will it cost to fix my screen?"],
  ["I'm able to log in", "I can't log in"],
  ["He is unable to log in", "I can't log in"],
  ["Why am I unable to log in?", "Why can I log in?"],
  // A negation typed without its apostrophe still counts.
  ["I dont have access to my account", "I have access to my account"],
  ["i cant login", "I can log in"],
  ["whats the way to delete an album", "How do I share an album?"],
  // "where" that asks a place.
  ["Where do I save the file?", "How do I save the file?"],
  ["Where do I pay my rent?", "How do I pay my rent?"],
  ["Where do I report a power outage?", "How do I report a gas leak?"],
  // Someone else's charge, a yes-or-no charge, another service.
  ["How much do they charge for a dog walk?", "How much does a dog walk cost?"],
  ["Do you charge for shipping?", "How much does shipping cost?"],
  ["How much do you charge for a cat visit?", "How much does a dog walk cost?"],
  // "take" that carries, or someone else's.
  ["Can I take my card abroad?", "Can I accept my card abroad?"],
  ["Do they take cash?", "Do they accept cash?"],
  // "make" is no booking; "schedule a post" names no booking.
  ["How do I make a lesson?", "How do I book a lesson?"],
  ["How do I schedule a post?", "How do I book a post?"],
  ["How do I retrieve files from a server?", "How do I restore files from a server?"],
  ["How do I hand in my keys?", "How do I give my keys?"],
  // Swapped words, a place that is nobody's, a companion.
  ["How do I change the invoice on my name?", "How do I change the name on my invoice?"],
  ["Who is the man in the car?", "Who is the car man?"],
  // "the X on / in my Y" is no "my Y X": idioms of that shape mean something else ("the job in my dream" / "my dream
  // job"), so support questions of it ("the battery in my car" / "my car battery") go to the provider too.
  ["What is the job in my dream?", "What is my dream job?"],
  ["How do I get rid of the chip on my shoulder?", "How do I get rid of my shoulder chip?"],
  // Sharing a place or a thing outside apps, receiving a ball, deleting things on an account.
  ["Is it normal to share a room with someone?", "Is it normal to share a room?"],
  ["How do I receive a pass in football?", "How do I get a pass in football?"],
  ["How do I remove the spam on my account?", "How do I remove spam?"],
  ["How do I change the battery in my car?", "How do I change my car battery?"],
  ["Draw a circle in a square", "Draw a square circle"],
  ["Is a man with a dog safe?", "Is a dog man safe?"],
  // Sharing with someone named, somewhere, or another verb; "my account" as a destination or before more.
  ["Can I share my account with someone in another country?", "Can I share my account?"],
  ["How do I share my screen with my team?", "How do I share my screen?"],
  ["How do I share a file with someone?", "How do I send a file to someone?"],
  ["How do I add money to my account?", "How do I add money?"],
  ["Why is there a charge on my account from Amazon?", "Why is there a charge from Amazon?"],
  // The mail is no address; an app is no feature switched on; the assistant's own age.
  ["How do I find my email address?", "How do I find my email?"],
  ["How do I change the email?", "How do I change my email address?"],
  ["How do I set up a two-factor app?", "How do I enable a two-factor app?"],
  ["How old are you?", "How old am I?"],
  // One of them is no other thing, nor two.
  ["How do I unlock one of your scooters?", "How do I unlock a bike?"],
  ["How do I cancel one of my classes?", "How do I cancel two classes?"],
  // Anyone is no support desk; an application is no shipment; a package is cancelled as no order is.
  ["How do I talk to a human about my feelings?", "How do I contact support about my feelings?"],
  ["How can I talk to a person?", "How do I contact support?"],
  ["How do I check the status of my application?", "How do I track my application?"],
  ["How do I cancel my package?", "How do I cancel my order?"],
  ["How do I track my order?", "How do I track my refund?"],
  // Getting is no sending.
  ["How do I receive a refund?", "How do I send a refund?"],
  ["How do I receive a payment?", "How do I send a payment?"],
  ["How old do you think I am?", "How old do I think I am?"],
  // cache9fix (an adversarial probe of the ninth session's rules, bench/data/cache-probe9.json): "take" that is no accepting;
  // an account that is the question, not where a setting is changed; giving is no getting nor showing, nor giving up;
  // "get a X to do" that makes it do; a vehicle caught; reporting somewhere; all of them, someone else's, being or needing
  // one of yours; what is at a place or on "the" one is no compound.
  ["Do you take days off?", "Do you accept days off?"],
  ["Does your shop take a commission?", "Does your shop accept a commission?"],
  ["When do you take the money for my pledge?", "When do you accept the money for my pledge?"],
  ["Is there a freeze on my account?", "Is there a freeze?"],
  ["How many credits are on my account?", "How many credits are there?"],
  ["How do I put credit on my account?", "How do I put credit?"],
  ["When do I hand over the car?", "When do I get the car?"],
  ["How do I give a refund?", "How do I get a refund?"],
  ["Do I need to give my passport?", "Do I need to show my passport?"],
  ["How do I give up my seat?", "How do I give my seat?"],
  ["How do I get a video to play?", "How do I receive a video to play?"],
  ["Can I get a taxi from the airport?", "Can I obtain a taxi from the airport?"],
  ["Where do I report for my first shift?", "How do I report for my first shift?"],
  ["Is one of your branches open late?", "Are all of your branches open late?"],
  ["Can I use a rival's voucher at one of your shops?", "Can I use one of your vouchers at a rival's shop?"],
  ["Do I need one of your chargers?", "Do I need a charger?"],
  ["How do I become one of your tutors?", "How do I become a tutor?"],
  ["Who is the man at my desk?", "Who is my desk man?"],
  ["How do I change the title on my post?", "How do I change my post on the title?"],
  // review8k (a second adversarial probe of the ninth session's rules, bench/data/cache-probe10.json): "book" and
  // "package" as nouns, "track" of anything else; someone else talking to an agent; the status of another's order or of
  // what "you" know; a message that is edited; the past inability; "credit" taken; a country handing over; "you" who give;
  // an account's things looked at.
  ["Recommend a book about long walks", "Recommend a schedule for long walks"],
  ["Give me a book of piano lessons for kids", "Give me a schedule of piano lessons for kids"],
  ["How do I schedule a demo video on YouTube?", "How do I book a demo video on YouTube?"],
  ["Summarize the book A Walk in the Woods", "Summarize the schedule of a walk in the woods"],
  ["How do I track package downloads on PyPI?", "How do I track order downloads on PyPI?"],
  ["How do I track the order of events in Kafka?", "How do I track the shipment of events in Kafka?"],
  ["Which Python package tracks memory leaks?", "Which Python order tracks memory leaks?"],
  ["How do I track a court order?", "How do I track a court package?"],
  ["Where is my package.json?", "Where is my order.json?"],
  ["How does the server talk to the agent?", "How does the server contact support?"],
  ["Write a story where a robot learns to talk to a human", "Write a story where a robot learns to contact support"],
  ["How do I check the status of an order in SQL?", "How do I track an order in SQL?"],
  ["Do you know the status of my order?", "Do you track my order?"],
  ["Edit my email so it sounds friendlier", "Edit my email address so it sounds friendlier"],
  ["Confirm my email was sent", "Confirm my email address was sent"],
  ["They were unable to land on the Moon", "They can't land on the Moon"],
  ["We are not able to prove it", "We were not able to prove it"],
  ["Do you take credit for this idea?", "Do you accept credit for this idea?"],
  ["When did Britain hand over Hong Kong?", "When did Britain get Hong Kong?"],
  ["Did you receive a gift?", "Did you give a gift?"],
  ["How do I find the music on my account?", "How do I find music?"],
  ["Can you see the tweets on my account?", "Can you see the tweets?"],
];

describe("support phrases, wishes and synonym groups (issue 24, sixth session)", () => {
  for (const [a, b] of SERVED) {
    test(`serves: "${a}" / "${b}"`, () => {
      expect(compare(a, b)).toEqual({ equivalent: true });
      expect(compare(b, a)).toEqual({ equivalent: true });
    });
  }
  for (const [query, cached] of ONE_WAY) {
    test(`serves one way: "${query}" from "${cached}"`, () => {
      expect(compare(query, cached)).toEqual({ equivalent: true });
      expect(compare(cached, query).equivalent).toBe(false);
    });
  }
  for (const [a, b] of REFUSED) {
    test(`refuses: "${a}" / "${b}"`, () => {
      expect(compare(a, b).equivalent).toBe(false);
      expect(compare(b, a).equivalent).toBe(false);
    });
  }
  test("recovering is restoring only when the user does it; a human is support only where no place or platform follows (issue 24, tenth session)", () => {
    // Without the rewrite the word vectors pair "recover" with "restore" and "chat ... real person" with "contact support"
    // (bench/data/cache-probe10.json served both), so the rewrite itself is what must not happen.
    expect(withRequestPhrases("Can forensic tools recover deleted files from an SSD?")).toBe("Can forensic tools recover deleted files from an SSD?");
    expect(withRequestPhrases("How do I chat with a real person on Omegle?")).toBe("How do I chat with a real person on Omegle?");
    expect(withRequestPhrases("How do I recover deleted photos?")).toBe("How do I restore deleted photos?");
    expect(withRequestPhrases("Recover deleted photos")).toBe("restore deleted photos");
    expect(withRequestPhrases("Is it possible to get my files back?")).toBe("Is it possible to restore my files?");
    expect(withRequestPhrases("How do I talk to a human at Comcast?")).toBe("How do I contact support at Comcast?");
    expect(withRequestPhrases("Can I talk to a human at the museum?")).toBe("Can I talk to a human at the museum?");
  });
  test("rewrites keep the verb's inflection and leave other objects alone", () => {
    expect(withRequestPhrases("I stopped my subscription")).toBe("I cancelled my subscription");
    expect(withRequestPhrases("ending my plan now")).toBe("cancelling my plan now");
    expect(withRequestPhrases("How do I end my ride?")).toBe("How do I end my ride?");
    expect(withRequestPhrases("Stop the music")).toBe("Stop the music");
  });
  test("British doubling of -el verbs stems to the verb, -ell words keep theirs", () => {
    expect(stem("cancelling")).toBe(stem("cancel"));
    expect(stem("travelled")).toBe(stem("travel"));
    expect(stem("misspelling")).toBe(stem("misspell"));
    expect(stem("spelled")).toBe(stem("spell"));
  });
});

describe("contractions typed without an apostrophe (issue 24, ninth session)", () => {
  // Apostrophes go back only where the word is no other word: a name, a plural noun, a word "cant", a brand.
  test.each([
    ["What did Jony Ive design?", "What did Jony Ive design?"],
    ["the hows and whys of tax", "the hows and whys of tax"],
    ["I cant stand the cant of politicians", "I can't stand the cant of politicians"],
    ["Set up WhatsApp", "Set up WhatsApp"],
    ["hows the weather", "how's the weather"],
  ])("%s", (written, read) => expect(canonicalRequest(written)).toBe(read));
});
