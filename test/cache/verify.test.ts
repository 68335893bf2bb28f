import { describe, expect, test } from "bun:test";
import {
  compareFacets,
  SynonymTable,
  extractFacets,
  substitutionAlignment,
  unmatchedWords,
  verifyEquivalent,
  wordsToEmbed,
  type MismatchKind,
} from "../../src/pipeline/cache";
import { stem } from "../../src/pipeline/cache/facets";

// A table an operator could give (none ships): one group, as the verifier stems its words.
const synonyms = new SynonymTable([`${stem("couch")} ${stem("sofa")}`]);

function compare(a: string, b: string) {
  return compareFacets(extractFacets(a), extractFacets(b));
}

/** Pairs whose answers differ although the words barely do, each with the difference the verifier must name. */
const NEAR_MISSES: [MismatchKind, string, string][] = [
  ["number", "What is 17 times 23?", "What is 17 times 24?"],
  ["number", "List 5 fruits", "List 6 fruits"],
  ["number", "List five fruits", "List 6 fruits"],
  ["number", "Can one cat catch 3 mice?", "Can 2 cats catch 3 mice?"],
  ["number", "What is -5 squared?", "What is 5 squared?"],
  ["number", "Give me the 3rd largest city in Italy", "Give me the 2nd largest city in Italy"],
  ["number", "Name the 3 largest cities in Italy", "Name the 3rd largest city in Italy"],
  ["number", "Explain Python 3.11 pattern matching", "Explain Python 3.12 pattern matching"],
  ["number", "Configure the interface with the ip 10.0.1.40/27", "Configure the interface with the ip 14.1.40/27"],
  ["operator", "What is 2+3", "What is 2*3"],
  ["operator", "What is 10 / 2?", "What is 10 - 2?"],
  ["operator", "What is 7 plus 4?", "What is 7 minus 4?"],
  ["operator", "Is x >= 3 when x = 3?", "Is x > 3 when x = 3?"],
  ["negation", "Why is the sky blue?", "Why is the sky not blue?"],
  ["negation", "I don't want sugar in my coffee recipe", "I want sugar in my coffee recipe"],
  ["negation", "Is it safe to eat raw eggs?", "Is it unsafe to eat raw eggs?"],
  ["negation", "Is this legal in my state?", "Is this illegal in my state?"],
  ["negation", "Recipes with meat", "Recipes without meat"],
  ["entity", "What is the capital city of France?", "What is the capital city of Spain?"],
  ["entity", "Who won the 2018 World Cup, France or Croatia?", "Who won the 2018 World Cup, France or Belgium?"],
  ["entity", "Explain the difference between AWS and GCP", "Explain the difference between AWS and Azure"],
  ["unit", "How many grams are in 3 cups of flour?", "How many ounces are in 3 cups of flour?"],
  ["unit", "Convert 100 km to miles", "Convert 100 km to feet"],
  ["unit", "What is 30% of 80?", "What is $30 of 80?"],
  // Letter case is the unit in data sizes and power: a megabit is not a megabyte, a milliwatt not a megawatt.
  ["unit", "Can a 40 Mbps line stream 4K video?", "Can a 40 MBps line stream 4K video?"],
  ["unit", "Is a 2 Gb memory chip big enough for this firmware?", "Is a 2 GB memory chip big enough for this firmware?"],
  ["unit", "How many homes can a 3 megawatt turbine power?", "How many homes can a 3 milliwatt turbine power?"],
  // One- and two-letter unit symbols bear their case: milligram and megagram, metre and million (cacheprobe13).
  ["unit", "Is 20 mg of zinc a day too much?", "Is 20 Mg of zinc a day too much?"],
  ["unit", "How far is 4 m in yards?", "How far is 4 M in yards?"],
  // A rating in stars is a unit: "a 4★ review" is no "a 4 review".
  ["unit", "What counts as a 4★ review on this app?", "What counts as a 4 review on this app?"],
  // A name that is also an everyday word is the name only by its capital (cacheprobe13: 22 of 24 such served).
  ["entity", "Should I buy Apple shares this year?", "Should I buy apple shares this year?"],
  ["entity", "What did the US say about the new tariffs?", "What did us say about the new tariffs?"],
  ["entity", "Where can I buy Polish sausages near me?", "Where can I buy polish sausages near me?"],
  // An acronym is a name whatever its lower-case word's frequency.
  ["entity", "Ask IT whether my laptop can run the update", "Ask it whether my laptop can run the update"],
  // Plus-minus, arrows and superscript powers are operators (cacheprobe13).
  ["operator", "What does 10 ± 3 mean on a lab report?", "What does 10 3 mean on a lab report?"],
  ["operator", "In logic, is P → Q the same as Q → P?", "In logic, is P ← Q the same as Q → P?"],
  ["operator", "Expand (a + b)² for me", "Expand (a + b)2 for me"],
  ["direction", "How do I turn on dark mode?", "How do I turn off dark mode?"],
  ["direction", "How do I encrypt a file with gpg?", "How do I decrypt a file with gpg?"],
  ["direction", "How can I increase my credit score?", "How can I decrease my credit score?"],
  ["direction", "What happened before the French Revolution?", "What happened after the French Revolution?"],
  ["direction", "Sort the list in ascending order", "Sort the list in descending order"],
  ["direction", "How do I log in to Gmail?", "How do I log out of Gmail?"],
  ["direction", "Translate this from English to German", "Translate this from German to English"],
  ["direction", "Convert JSON to YAML", "Convert YAML to JSON"],
  ["direction", "Which is the largest planet?", "Which is the smallest planet?"],
  ["direction", "Should I buy Tesla stock?", "Should I sell Tesla stock?"],
  ["language", "Write a function that reverses a string in C", "Write a function that reverses a string in C++"],
  ["language", "Given structs A and B, write the merge in C", "Given structs A and B, write the merge in C++"],
  ["language", "How do I read a file in Python?", "How do I read a file in Rust?"],
  ["language", "Port this function to Go", "Port this function to Rust"],
  ["language", "Write it in go", "Write it in rust"],
  ["language", "Implement quicksort in javascript", "Implement quicksort in typescript"],
  ["language", "Translate 'good morning' into Spanish", "Translate 'good morning' into Italian"],
  ["format", "List the planets as JSON", "List the planets as YAML"],
  ["format", "Summarise this in a table", "Summarise this in bullet points"],
  ["format", "Write a haiku about the sea", "Write a limerick about the sea"],
  ["literal", "What does `git rebase -i` do?", "What does `git rebase --onto` do?"],
  ["literal", "Explain the error 'KeyError: user_id'", "Explain the error 'KeyError: user_name'"],
  ["literal", "What does os.path.join do?", "What does os.path.split do?"],
  // Quoted words may lose their quotes, not change their order or their words.
  ["literal", "Translate 'dog bites man' into French", "Translate 'man bites dog' into French"],
  ["literal", "What does 'set' mean in this sentence?", "What does get mean in this sentence?"],
  ["negation", "The problem isn't who has money.", "The problem is who doesn't have money."],
  ["negation", "You don't need money for this.", "You don't have money for this."],
  ["role", "You should do it.", "You can do it."],
  ["role", "Why did the transaction take place?", "Did the transaction take place?"],
  ["role", "Why do you peel peaches?", "How do you peel peaches?"],
  ["role", "Obama said that he is the future.", "Obama said that it is the future."],
  ["role", "Do you believe there was an iceberg?", "I believe there was an iceberg."],
  ["literal", "用Go语言写一个排序函数", "用Rust语言写一个排序函数"],
  ["order", "James visits 20 houses to sell. He sells in every house.", "James visits 20 already to sell. He sells in every house."],
  ["content", "Name some animals besides cats.", "Name some animals like cats."],
  ["content", "List all colours but red.", "List all colours."],
  ["content", "How do I reset my password?", "How do I reset my username?"],
  ["content", "How do I cook rice?", "How do I cook pasta?"],
  // Served until a blind set (pairs-4) showed them: identifiers in each other's places, quotations in
  // each other's places, a compound's word exchanged with a word alone, a slice's colons.
  ["order", "Create an index on users.email referencing accounts.owner_email", "Create an index on accounts.owner_email referencing users.email"],
  ["literal", "Does s.endsWith(t) hold when s is 'cat' and t is 'at'?", "Does s.endsWith(t) hold when s is 'at' and t is 'cat'?"],
  ["order", "How do I turn class-based React components into hooks?", "How do I turn hook-based React components into classes?"],
  ["operator", "What does s[2:5] give for s = 'abcdefg'?", "What does s[2::5] give for s = 'abcdefg'?"],
  ["number", "Is the pharmacy open at 9am on Saturday?", "Is the pharmacy open at 9pm on Saturday?"],
  ["number", "Book the call for 7 a.m. tomorrow", "Book the call for 7 p.m. tomorrow"],
  ["number", "Is the gym open from 6am to 10pm?", "Is the gym open from 6pm to 10am?"],
  ["operator", "What does s[2:] give?", "What does s[:2] give?"],
  // "constructor" is an ordinary word (it once read as a number, Object.prototype's property).
  ["content", "What is a constructor in Java?", "What is a destructor in Java?"],
  // The same words in another order or role (issue 24): the bags above cannot tell these apart.
  ["order", "Spain beat Italy 2-0 in the final", "Italy beat Spain 2-0 in the final"],
  ["order", "Ann lent Bob $50 last week", "Bob lent Ann $50 last week"],
  ["order", "Write a letter from a tenant to a landlord", "Write a letter from a landlord to a tenant"],
  ["order", "Write a letter from a tenant to a landlord", "Write a letter to a tenant from a landlord"],
  ["order", "Write a story told by the wolf about the shepherd", "Write a story told by the shepherd about the wolf"],
  ["order", "Move the rows from table A to table B", "Move the rows from table B to table A"],
  ["order", "Is a cat bigger than a dog?", "Is a dog bigger than a cat?"],
  ["order", "Which is faster, Python vs Rust?", "Which is faster, Rust vs Python?"],
  ["order", "What is 10 - 3?", "What is 3 - 10?"],
  ["order", "Subtract 3 and 5", "Subtract 5 and 3"],
  ["order", "Red apples and pears are on the table", "Red pears and apples are on the table"],
  ["order", "Spain beat Italy and France beat Germany", "Spain beat France and Italy beat Germany"],
  ["order", "Why does the dog chase the cat?", "Why does the cat chase the dog?"],
  ["order", "What is John's brother's name?", "What is the brother of John's name?"],
  ["order", "Write explanations only when I ask for them", "Write explanations only when I ask by them"],
  ["order", "Sort the matrix according to the sum of its rows", "Sort the matrix according from the sum of its rows"],
  ["operator", "Compute total/count for each row", "Compute total*count for each row"],
  ["role", "How do I get more storage?", "How much storage do I get?"],
  ["role", "Where do I live?", "How do I live?"],
  ["role", "What is the best way to learn French?", "How do I learn French?"],
  ["operator", "What is the product of 6 and 7?", "What is the sum of 6 and 7?"],
  // A minus between single letters after an operator is not a hyphen (was served as the same request).
  ["operator", "Compute a+b", "Compute a+b-c"],
  ["operator", "What is 3 x 4?", "What is 3 + 4?"],
  // Two persons who trade roles: the same pronouns, the other way round (written for this case).
  ["order", "You play the teacher and I play the student.", "I play the teacher and you play the student."],
  ["order", "I'm the buyer and you're the seller in this negotiation role-play.", "You're the buyer and I'm the seller in this negotiation role-play."],
  ["order", "Tell me what you would ask a new hire.", "Tell you what I would ask a new hire."],
  // Another person doing it, in any form of the pronoun.
  ["role", "Should we leave now?", "Should they leave now?"],
  ["role", "Tell them the news", "Tell him the news"],
  ["role", "Did it work?", "Did they work?"],
  ["operator", "Let y=a-b", "Let y=a+b"],
  ["direction", "How do I convert Celsius to Fahrenheit?", "How do I convert Fahrenheit to Celsius?"],
  ["direction", "Translate this text from German into French", "Translate this text from French into German"],
  ["operator", "Is a != b true when a is 1 and b is '1'?", "Is a !== b true when a is 1 and b is '1'?"],
  ["operator", "What does x << 2 do in C?", "What does x >> 2 do in C?"],
  ["operator", "Compute (a + b) / 2 for a = 3, b = 5", "Compute a + b / 2 for a = 3, b = 5"],
  ["operator", "Simplify [x * (y + 1)]", "Simplify [x * y] + 1"],
  // Operators between literals (calls, code spans) stay where they stood: a literal cut out of the
  // text took its operator's operands with it, and "f(x) * g(x)" was served for "f(x) / g(x)".
  ["operator", "Simplify f(x) * g(x)", "Simplify f(x) / g(x)"],
  ["operator", "Simplify f(x)*g(x)", "Simplify f(x)/g(x)"],
  ["operator", "Differentiate sin(x) * cos(x)", "Differentiate sin(x) / cos(x)"],
  ["operator", "What is len(a) + len(b)?", "What is len(a) - len(b)?"],
  ["operator", "What does `a` * `b` give?", "What does `a` / `b` give?"],
  ["operator", "Simplify f(x) / g(x)", "Simplify g(x) / f(x)"],
  ["operator", "Is foo() < bar() here?", "Is bar() < foo() here?"],
  // "a" beside an operator is a variable: its place counts.
  ["order", "Set d - a, then return d", "Set a - d, then return d"],
  ["order", "Compute x / a for x = 4", "Compute a / x for x = 4"],
  // In a title every longer word is capitalised: a swapped name is a swapped word like any other.
  ["content", "Cheap Flights From Paris To London", "Cheap Flights From Paris To Berlin"],
  // One more item than the cached prompt: the shared ones come first in both lists.
  ["number", "Add 3 and 4", "Add 3 and 4 and 5"],
  ["literal", "What does `ls` do?", "What do `ls` and `pwd` do?"],
  // A destination in one prompt is the origin in the other, and neither has a second one to compare.
  ["direction", "Translate this text into French", "Translate this text from French"],
  ["direction", "Write a letter to Paris", "Write a letter from Paris"],
  // Antonyms by suffix: -less against the root or its -ful.
  ["negation", "Is a careless driver dangerous?", "Is a careful driver dangerous?"],
  ["negation", "Is this tool useless?", "Is this tool useful?"],
  ["negation", "Why are people homeless?", "Why are people home?"],
  // A determiner standing alone is a pronoun, and the relation word before it counts.
  ["order", "Her sister gave her $50 for her to buy the heels.", "Her sister gave her $50 by her to buy the heels."],
  ["order", "Write a letter for her.", "Write a letter from her."],
  // One form for particle verbs, and their directions stay apart.
  ["direction", "How do I log in to the app?", "How do I log out of the app?"],
  ["direction", "How do I switch on dark mode?", "How do I turn off dark mode?"],
  ["direction", "How do I turn on roaming?", "How do I disable roaming?"],
  // "What" or "which" before a noun picks one; an auxiliary opening the question asks yes or no.
  ["role", "Which countries use the euro?", "Do countries use the euro?"],
  ["role", "What languages are spoken in Peru?", "Are languages spoken in Peru?"],
  // An operator word outside math is a word like any other, inside it an operator.
  ["content", "The product I received is broken", "The item I received is broken"],
  ["operator", "What is the product of these numbers?", "What is the sum of these numbers?"],
  ["operator", "What is the difference between 5 and 3?", "What is the sum of 5 and 3?"],
  // The parts of an elision are words.
  ["content", "Termine par un appel à l’action.", "Termine par un appel à l’exécution."],
  // The negated word by its stem, and still compared.
  ["negation", "My login is not working", "My login is working, not the app"],
  ["role", "Is it possible to cancel my order?", "Should I cancel my order?"],
  // A modal opening a yes-or-no question still counts as the modal.
  ["role", "Can I cancel my order?", "Should I cancel my order?"],
  // Quantifiers of another force, and a statement for the question it answers.
  ["role", "Do all birds fly?", "Do some birds fly?"],
  ["role", "Can everyone see my file?", "Can someone see my file?"],
  ["role", "Do most people vote?", "Do few people vote?"],
  ["role", "Is it legal to grow?", "Yes, it's legal to grow."],
  // An indefinite pronoun is an argument: knowing everything is not knowing (and "every" a quantity on one side only).
  ["role", "You don't need to know everything.", "You don't have to know."],
  // Issue 24, tenth session: a definite quantifier must agree, on one side only too (bench/data/cache-probe10.json's classes).
  ["role", "Pick one of the numbers and square it", "Pick a number and square it"],
  ["role", "Is one of the numbers even?", "Is any of the numbers even?"],
  ["role", "One of the variables is undefined", "Every one of the variables is undefined"],
  ["role", "Delete all the files in the folder", "Delete a file in the folder"],
  ["role", "Are both tests failing?", "Are the tests failing?"],
  ["direction", "Write a poem about one of the seasons", "Write a poem about each of the seasons"],
  // An amount word before what it counts, on one side only.
  ["role", "Can I add several users to my account?", "Can I add a user to my account?"],
  ["role", "Can I book many rooms at once?", "Can I book a room at once?"],
  ["role", "Can I use a few coupons on one order?", "Can I use a coupon on one order?"],
  ["role", "What are your most popular plans?", "What are your popular plans?"],
  // Two-word quantifiers that say otherwise than their head word (bench/data/cache-probe11.json).
  ["role", "Is every other row shaded?", "Is every row shaded?"],
  ["role", "Do few people speak Latin?", "Do a few people speak Latin?"],
  // "the ratio between X and Y" is X / Y, ordered; a name repeated where the other repeats another.
  ["order", "What is the ratio between boys and girls in the class?", "What is the ratio between girls and boys in the class?"],
  ["entity", "Draw a line between point A and point B, then extend it past B.", "Draw a line between point A and point B, then extend it past A."],
  // A fronted phrase of the answer's form stays in front: at the end it is the form of what the user makes.
  ["order", "In a sentence, how do I use a semicolon?", "How do I use a semicolon in a sentence?"],
  ["order", "In one paragraph, how do I write a cover letter?", "How do I write a cover letter in one paragraph?"],
  ["order", "In a few words, how do I describe myself?", "How do I describe myself in a few words?"],
  ["order", "In detail, how do I write a report?", "How do I write a report in detail?"],
  // Math in words keeps a difference's sides in order: x² - y² is not y² - x².
  ["order", "What is the difference between x squared and y squared?", "What is the difference between y squared and x squared?"],
  // A preposition dropped between two words that then make a compound after a determiner.
  ["role", "Why is the fish in my tank dying?", "Why is my fish tank dying?"],
  ["role", "Why is the test in my suite failing?", "Why is my test suite failing?"],
  ["role", "How do I clear the cache in my browser?", "How do I clear my cache browser?"],
  // Two numbers spelled side by side are two numbers, not their sum (lead served both pairs).
  ["number", "Add two and three", "Add one and four"],
  ["number", "What's the difference between two and three?", "What's the difference between one and four?"],
  // A fronted phrase moved to the end keeps its words' roles; a difference's sides in another order are the same
  // question only when they are words ("10 and 4" may be signed).
  ["direction", "In Spain, how do I get to Italy?", "In Italy, how do I get to Spain?"],
  ["order", "In Python, how do I convert a list to a string?", "In a string, how do I convert a list to Python?"],
  ["order", "What's the difference between 10 and 4?", "What's the difference between 4 and 10?"],
  ["content", "Whats the difference between a process and a thread?", "Whats the difference between a thread and a fiber?"],
  // A passive asked of its agent is its active, the roles kept: not who the subject acted on, nor who acted on the agent.
  ["order", "Who did the Mona Lisa paint?", "The Mona Lisa was painted by whom?"],
  ["order", "Who was painted by Leonardo?", "Leonardo was painted by whom?"],
  // A preposition closing the question governs its question word: the receiver is not the sender.
  ["role", "The letter was sent by whom?", "Who was the letter sent to?"],
  ["role", "What is this used for?", "What is this used?"],
  // "a X" against "the Xs": one of them against all of them.
  ["role", "How do I unlock one of the doors?", "How do I unlock the doors?"],
  ["role", "How do I return the items?", "How do I return an item?"],
  // Scale words are numbers, in their places too.
  ["order", "Is a million bigger than a billion?", "Is a billion bigger than a million?"],
  ["number", "How long would it take to count to a billion?", "How long would it take to count to a million?"],
  ["number", "How much is a million seconds in days?", "How much is a billion seconds in days?"],
  // A wish with a bare "how" asks for the wish's procedure, not another one.
  ["content", "I want to cancel my plan, how do I do it?", "How do I upgrade my plan?"],
  ["content", "I want to cancel, but how do I keep my data?", "How do I cancel?"],
  ["content", "I want to return an item, how does it work?", "How do I exchange an item?"],
  ["role", "Tell me how you reset it", "How do I reset it?"],
  ["role", "How would you export contacts?", "How do I export contacts?"],
  ["role", "Am I able to cancel my order?", "Should I cancel my order?"],
  ["role", "Explain recursion", "How do I use recursion?"],
  ["content", "What is the meaning of life?", "What is the definition of life?"],
  ["content", "What does it mean to be free?", "Define free"],
  ["content", "What does ephemeral mean?", "What does eternal mean?"],
  ["content", "How is a crocodile different from a lizard?", "What is the difference between a crocodile and an alligator?"],
  ["order", "How do red apples and pears differ?", "What is the difference between red pears and apples?"],
  ["role", "How is climate different now?", "What is the difference in climate now?"],
  ["content", "What is the price of a passport?", "What is the price of a visa?"],
  ["role", "How much time does it take to boil an egg?", "How many eggs does it take to boil?"],
  ["content", "I want to return an item, how does the refund work?", "How do I return an item?"],
  // A forgotten secret changed is a reset; a known one changed is not, nor is a forgotten username.
  ["content", "I forgot my password, how can I change it?", "How do I change my password?"],
  ["role", "I forgot my username, how can I change it?", "How do I reset my username?"],
  ["role", "I forgot my password, how can I find it?", "How do I reset my password?"],
  // The process and the steps ask how; another criterion, a process of nature or tips do not.
  ["role", "What's the fastest way to renew my passport?", "How do I renew my passport?"],
  ["role", "What's the cheapest way to ship a parcel?", "How do I ship a parcel?"],
  ["role", "What is the process of photosynthesis?", "How do I photosynthesis?"],
  ["role", "Any tips for the interview?", "How do I interview?"],
  ["role", "What should I do?", "How do I?"],
  // A derivation keeps the meaning only by a suffix that does ("adopt" / "adoption"), not an agent's or a false friend's.
  ["content", "How do I fix my printer?", "How do I fix my print?"],
  ["content", "Where is the department?", "Where do I depart?"],
  ["content", "Who is the president of the club?", "Who is to preside of the club?"],
  // The time an auxiliary puts the question in: "is" / "was" too ("the president" changes).
  ["role", "Who is the president of France?", "Who was the president of France?"],
  ["role", "Did my payment go through?", "Will my payment go through?"],
  ["role", "Was my refund processed?", "Will my refund be processed?"],
  ["role", "Has my prescription been refilled?", "Will my prescription be refilled?"],
  // A final "s" that is no plural: "https" is another word than "http", so the two stand in an order.
  ["order", "Redirect http to https on my site", "Redirect https to http on my site"],
  ["role", "Does the Fed raise interest rates?", "Did the Fed raise interest rates?"],
  // A place ("in", "on", "at") is a role: both words after it swapped, or another relation before it.
  ["order", "Can I put the box in the bag?", "Can I put the bag in the box?"],
  ["order", "Put the milk in the fridge", "Put the fridge in the milk"],
  // A literal is an argument with a place, like a word (outside a coordinated list).
  ["order", "Why does `setup()` run before the test body (`teardown()`)?", "Why does `teardown()` run before the test body (`setup()`)?"],
];

/** Rewordings that must stay equivalent, or the cache would never hit. */
const PARAPHRASES: [string, string][] = [
  // The other side of each probe11 refusal: a difference or relationship between two things is unordered, "every"
  // and "a few" alone are as before, and one name repeated on one side only is no swap.
  ["What is the difference between boys and girls?", "What is the difference between girls and boys?"],
  ["In a tweet, how would you describe Rome?", "How would you describe Rome in a tweet?"],
  ["How is x squared different from y squared?", "What is the difference between x squared and y squared?"],
  ["What is the relationship between boys and girls in the class?", "What is the relationship between girls and boys in the class?"],
  ["Does every row have a header?", "Does each row have a header?"],
  ["Do a few people speak Latin?", "do a few people speak latin"],
  ["Draw a line from point A to point B.", "Draw a line from point A to point B, from A."],
  // Issue 24, tenth session: what the quantity and compound checks leave served. "some" / "any" on one side, idioms of "all",
  // "both X and Y"; a preposition dropped where no compound follows a determiner.
  ["Is there any fee at all?", "Is there a fee?"],
  // "a X" against "the X" or "my Xs" says nothing of how many.
  ["How do I unlock a door?", "How do I unlock the door?"],
  ["How do I return an item?", "How do I return my items?"],
  // A particle closing a phrasal verb is no stranded preposition.
  ["What is the check-in time?", "What time can I check in?"],
  ["What are you looking for?", "What are you looking for"],
  // An amount word as a predicate or adverb counts nothing on its own: the quantity role alone, which one side may lack.
  ["The questions are many.", "There are many questions."],
  // A fronted phrase of place, tool or standing asks what it asks at the end; a difference is the same both ways.
  ["As a non-resident, how can I open a bank account?", "How do I open a bank account as a non-resident?"],
  ["In Lisbon, how do I get from the airport to the city center?", "How do I get from the airport to the city center in Lisbon?"],
  ["On Windows, how do I take a screenshot?", "How do I take a screenshot on Windows?"],
  ["Whats the difference between baking soda and baking powder?", "How is baking powder different from baking soda?"],
  ["Who painted the Mona Lisa?", "The Mona Lisa was painted by whom?"],
  ["Who discovered penicillin?", "Penicillin was discovered by whom?"],
  ["What is the difference between an LLC and a sole proprietorship?", "How does a sole proprietorship differ from an LLC?"],
  ["Firstly, simplification of the Treaties.", "First of all, the simplification of the Treaties."],
  ["Is the museum open on Sundays?", "Is the museum open Sundays?"],
  ["how do i do a factory reset on my thermostat", "How do I factory reset my thermostat?"],
  ["How do I ask for a refund on my order?", "How do I ask for a refund for my order?"],
  // A compound on one side only is no exchange; quotations and slices in the same order are the same.
  ["What is the check-in time?", "What time can I check in?"],
  ["Is the pharmacy open at 9am on Saturday?", "is the pharmacy open at 9 a.m. on saturday"],
  ["I am 30, am I too old to learn piano?", "I'm 30, am I too old to learn piano?"],
  ["If I'm 25 am I eligible for the discount?", "If I'm 25, am I eligible for the discount?"],
  // Two compounds that share no part are no exchange.
  ["What is the time complexity of quick-sort in the worst case?", "What's the worst-case time complexity of quick-sort?"],
  ["Does s.endsWith(t) hold when s is 'cat' and t is 'at'?", "does s.endsWith(t) hold when s is 'cat' and t is 'at'"],
  ["What does s[2:5] give for s = 'abcdefg'?", "what does s[2:5] give for s = 'abcdefg'"],
  // Two persons in the same roles, worded another way: the order check sees the pronouns agree.
  ["Pretend you are my manager and I ask you for a raise.", "Pretend that you are my manager and I ask you for a raise."],
  ["What is the capital of France?", "what's the capital of france"],
  ["What is 2+3?", "what is 2 + 3"],
  ["What is 2 plus 3?", "What is 2+3?"],
  // A full stop after a digit or a bracket is punctuation, not a number.
  ["What is 2+3.", "What is 2+3?"],
  ["List the planets (in order of size).", "List the planets (in order of size)"],
  ["List 5 fruits", "list five fruits"],
  ["How much money one would need to retire at 50", "How much money you would need to retire at 50"],
  ["I don't like coffee, what else can I drink?", "I do not like coffee, what else can I drink?"],
  ["Translate hello to French", "Translate hello into French"],
  ["How To Train Your Dragon: summary", "how to train your dragon summary"],
  ["Who Is The Author Of The Hobbit?", "who is the author of the hobbit?"],
  // Only one of them puts the question in a time: "How can I ...?" says nothing against "How do I ...?".
  ["How can I cancel my plan online?", "How do I cancel my plan online?"],
  ["What is the population of the Philippines?", "What is the Philippine population?"],
  ["What is the difference between a stock and a bond?", "What is the difference between a bond and a stock?"],
  ["Explain recursion to a 5 year old", "Explain recursion to a five-year-old"],
  ["What happened on the third day of the Battle of Gettysburg?", "What happened on the 3rd day of the Battle of Gettysburg?"],
  ["Why did the U.N. send troops to Korea?", "Why did the UN send troops to Korea?"],
  ["Is a.k.a. formal English?", "Is aka formal English?"],
  ["How many bitcoin are mined per day?", "How many bitcoins are mined per day?"],
  ["Write a sort function in C.", "write a sort function in c"],
  ["In a triangle with angles A, B and C, B is twice C. Find C.", "in a triangle with angles a, b and c, b is twice c. find c"],
  ["We do not have to look far to find examples.", "We do not have to go look far to find examples."],
  ["A man is playing a guitar.", "A man plays the guitar."],
  ["How can I reset my password?", "How do I reset my password"],
  // Order that carries no meaning: coordinated lists, "X's Y" / "Y of X", "Y X" / "X of Y".
  ["What is the difference between apples and pears?", "What is the difference between pears and apples?"],
  ["Compare Python and Java for web development", "Compare Java and Python for web development"],
  ["Name the capitals of France, Spain and Italy.", "Name the capitals of Italy, France and Spain."],
  ["What is the capital of France?", "What is France's capital?"],
  ["Give me some recipes for pasta", "Give me some pasta recipes"],
  ["What is 3 × 4?", "What is 3 * 4?"],
  ["Simplify f(x) * g(x).", "simplify f(x)*g(x)"],
  ["What does `ls` do?", "what does `ls` do"],
  ["Compare `map` and `filter` in JavaScript", "Compare `filter` and `map` in JavaScript"],
  ["Is it a good idea to rent?", "Is it a good idea to rent"],
  ["What is 1/2 of 10?", "What is 2/4 of 10?"],
  // Question frames that ask for the same procedure as "how do I".
  ["How do I reset my password?", "What's the way to reset my password?"],
  ["How can I reset my password?", "Where do I reset my password?"],
  ["How do I cancel my subscription?", "Is there a way to cancel my subscription?"],
  ["Which ocean is the largest?", "Which is the largest ocean?"],
  ["What planet is the smallest in the solar system?", "What is the smallest planet in the solar system?"],
  // A wish followed by a bare "how" or "what do I do" asks for the wish's procedure.
  ["I want to cancel my plan, how do I do it?", "How do I cancel my plan?"],
  ["I'd like to open a savings account. How?", "How do I open a savings account?"],
  ["I need to change my PIN, what do I do?", "How do I change my PIN?"],
  ["I want to return an item, how does it work?", "How do I return an item?"],
  // Asking to be told or shown how, or for the steps, asks how.
  ["Can you tell me how to reset my password?", "How do I reset my password?"],
  ["Show me how to export my contacts", "How can I export my contacts?"],
  ["Explain how to make sourdough bread", "How do I make sourdough bread?"],
  ["I'd like to know how to renew my passport", "how to renew my passport"],
  ["What are the steps to renew my passport?", "How do I renew my passport?"],
  // What a word means, and its definition, in their usual frames; a price and a duration asked otherwise.
  ["What does ephemeral mean?", "What is the meaning of ephemeral?"],
  ["ephemeral meaning", "what does 'ephemeral' mean"],
  ["Define ephemeral", "What's the definition of ephemeral?"],
  ["What does a passport cost?", "How much does a passport cost?"],
  ["What is the price of a passport?", "How much does a passport cost?"],
  ["How much time does it take to boil an egg?", "How long does it take to boil an egg?"],
  ["How does one renew a passport?", "How do I renew a passport?"],
  // A difference asked in its usual frames, either way round; "the word", "the phrase" before a meaning asked.
  ["How is climate different from weather?", "What is the difference between weather and climate?"],
  ["How do TCP and UDP differ?", "What is the difference between TCP and UDP?"],
  ["How does a crocodile differ from an alligator?", "What's the difference between an alligator and a crocodile?"],
  ['What does "ceteris paribus" mean?', "Meaning of the phrase ceteris paribus?"],
  ["How would I export my contacts?", "How can I export my contacts?"],
  ["Am I able to cancel my order?", "Can I cancel my order?"],
  // A forgotten password, PIN or passcode asked to be changed or reset is asked to be reset.
  ["I forgot my password, how can I change it?", "How do I reset my password?"],
  ["I've forgotten my card PIN. How do I reset it?", "How can I reset my card PIN?"],
  // Particle verbs in one form: "turn on" / "switch on" / "enable", "log in" / "sign in" / "login".
  ["How do I turn off notifications?", "How can I disable notifications?"],
  ["How do I switch on roaming?", "How do I enable roaming?"],
  ["He turned on the light.", "He enabled the light."],
  ["I can't log in to my account", "I can't sign in to my account"],
  ["login not working", "log in not working"],
  // "What" and "which" before a noun ask the same; neither against the bare noun phrase.
  ["What payment methods do you accept?", "Which payment methods do you accept?"],
  ["What language is spoken in Peru?", "Which language is spoken in Peru?"],
  ["Which language is spoken in Peru?", "language spoken in Peru"],
  ["login not working", "My login doesn't work"],
  ["Is it possible to cancel my order?", "Can I cancel my order?"],
  // Quantifiers of the same force.
  ["Is this allowed for each user?", "Is this allowed for all users?"],
  ["Is it legal to grow?", "is it legal to grow"],
  // Courtesy at the edges frames a request without changing it.
  ["Hi! Can you please list three fruits? Thanks!", "List three fruits."],
  ["Could you please explain recursion?", "Explain recursion"],
  ["I'd like you to write a poem about the sea", "Write a poem about the sea."],
  ["Quick question: what is the boiling point of water?", "What is the boiling point of water?"],
  ["Hello, what time zone is Tokyo in? Thank you in advance.", "What time zone is Tokyo in?"],
  ["What is the boiling point of water? . . . , ! thanks so much!!", "What is the boiling point of water?"],
  // Intensifiers, discourse markers, contractions and British spellings.
  ["It makes absolutely no difference.", "It makes no difference."],
  ["But is it a good idea to rent?", "Is it a good idea to rent?"],
  ["I'm thinking it's a bad idea.", "I am thinking it is a bad idea."],
  ["You do not need to worry about it.", "You don't have to worry about it."],
  ["What is your favourite colour?", "What is your favorite color?"],
  ["Which programme should I use to organise photos?", "Which program should I use to organize photos?"],
  // Scare quotes and quoted terms.
  ["Russia warns it will respond if its interests are attacked", "Russia warns it will 'respond' if its interests are attacked"],
  ['How is a "term" defined in information retrieval?', "How is a term defined in information retrieval?"],
  // A possessive before or after its noun is the same person.
  ["Is this your book?", "Is this book yours?"],
  ["Is this our house?", "Is this house ours?"],
  ["Is this her car?", "Is this car hers?"],
  ["Is this their dog?", "Is this dog theirs?"],
  // One of two quoted words loses its quotes; the other still matches its quoted twin.
  ["What do 'fast' and 'slow' mean?", "What do fast and 'slow' mean?"],
  ["What do 'fast' and 'slow' mean?", "What do 'fast' and slow mean?"],
  // A case-bearing unit typed the same way on both sides is the same unit.
  ["Can a 40 Mbps line stream 4K video?", "Can a 40 Mbps line stream 4K videos?"],
  // A name general English writes capitalised meets its lower-case spelling: lower-case typists ask the same.
  ["What is the capital of France?", "what is the capital of france?"],
  ["How is DNA copied in a cell?", "How is dna copied in a cell?"],
  // A writer who opens sentences in lower case says nothing by a missing capital: the name is the same.
  ["Should I buy Apple shares this year?", "should i buy apple shares this year?"],
  ["Where can I buy Polish sausages near me?", "Hi! where can i buy polish sausages near me? Thanks."],
];

describe("verifier", () => {
  for (const [kind, a, b] of NEAR_MISSES) {
    test(`refuses (${kind}): "${a}" vs "${b}"`, () => {
      const forward = compare(a, b);
      const backward = compare(b, a);
      expect(forward.equivalent).toBe(false);
      expect(backward.equivalent).toBe(false);
      if (!forward.equivalent) expect(forward.kind).toBe(kind);
      if (!backward.equivalent) expect(backward.kind).toBe(kind);
    });
  }

  for (const [a, b] of PARAPHRASES) {
    test(`accepts: "${a}" vs "${b}"`, () => {
      expect(compare(a, b)).toEqual({ equivalent: true });
      expect(compare(b, a)).toEqual({ equivalent: true });
    });
  }

  test('"How do I X my Y?" (cached) answers "Can I X my Y?" (asked), one way only, and only for actions on what is the user\'s', () => {
    for (const asked of ["Can I cancel my order?", "Is it possible to cancel my order?", "Could I cancel my order?"]) {
      expect(compare(asked, "How do I cancel my order?")).toEqual({ equivalent: true });
      expect(compare("How do I cancel my order?", asked)).toMatchObject({ equivalent: false, kind: "role" });
    }
    expect(compare("Can I freeze my debit card?", "How can I freeze my debit card?")).toEqual({ equivalent: true });
    // Whether it is safe or allowed, which a "how" answer takes for granted; another person; not the user's own.
    for (const [asked, cached] of [
      ["Can I eat raw fish?", "How do I eat raw fish?"],
      ["Can I increase my dose?", "How do I increase my dose?"],
      ["Can you cancel my order?", "How do I cancel my order?"],
      ["Can I cancel the order?", "How do I cancel the order?"],
      ["Can I cancel my order?", "Why do I cancel my order?"],
      ["Can I cancel my order?", "How do you cancel your order?"],
    ]) {
      expect(compare(asked!, cached!)).toMatchObject({ equivalent: false, kind: "role" });
    }
  });

  test('"where do I" with an action on the user\'s things asks "how do I"; with a place it does not', () => {
    for (const verb of ["freeze", "unlock", "activate", "renew", "upgrade", "submit"]) {
      expect(compare(`Where do I ${verb} my card?`, `How do I ${verb} my card?`)).toEqual({ equivalent: true });
    }
    expect(compare("Where can I print on campus?", "How do I print on campus?")).toMatchObject({ equivalent: false, kind: "role" });
    expect(compare("Where do I live?", "How do I live?")).toMatchObject({ equivalent: false, kind: "role" });
  });

  test("a substituted word needs a near-synonym by the embedder's word vectors", () => {
    const a = extractFacets("How do I make an adjustable desk?");
    const b = extractFacets("How can I build an adjustable desk?");
    const c = extractFacets("How can I paint an adjustable desk?");
    expect(unmatchedWords(a, b)).toEqual({ onlyA: ["make"], onlyB: ["build"] });
    expect(compareFacets(a, b)).toMatchObject({ equivalent: false, kind: "content" });
    const unit = (...xs: number[]) => Float32Array.from(xs.map((x) => x / Math.hypot(...xs)));
    const vectors = new Map([
      ["make", unit(1, 0.2, 0, 0)],
      ["build", unit(1, 0.3, 0.1, 0)],
      ["paint", unit(0, 0.2, 1, 0)],
      ["adjustable", unit(0, 0, 0, 1)],
      ["desk", unit(0, 0.1, 0, 1)],
    ]);
    expect(compareFacets(a, b, { vectors, minSimilarity: 0.9 })).toEqual({ equivalent: true });
    expect(compareFacets(a, c, { vectors, minSimilarity: 0.9 })).toMatchObject({ equivalent: false, kind: "content" });
    // An added word must be explained by the other prompt too: "hot water" is not "water".
    expect(
      compareFacets(extractFacets("Where is the water in the kitchen?"), extractFacets("Where is the hot water in the kitchen?"), {
        vectors,
        minSimilarity: 0.9,
      }),
    ).toMatchObject({ equivalent: false, kind: "content" });
    // A word used once more in one prompt ("candy ... candy" / "candy ... parking") is a substitution too.
    expect(unmatchedWords(extractFacets("I have candy and more candy"), extractFacets("I have candy and more parking"))).toEqual({
      onlyA: ["candi"],
      onlyB: ["park"],
    });
  });

  test("words are embedded only when both prompts have unmatched words (else nothing can pair), four at most", () => {
    const f = (t: string) => extractFacets(t);
    expect(wordsToEmbed(f("How do I make an adjustable desk?"), f("How can I build an adjustable desk?"))).toEqual(["make", "build"]);
    expect(wordsToEmbed(f("Where is the water in the kitchen?"), f("Where is the hot water in the kitchen?"))).toEqual([]);
    expect(wordsToEmbed(f("Where is the hot water in the kitchen?"), f("Where is the water in the kitchen?"))).toEqual([]);
    expect(wordsToEmbed(f("Where is the water?"), f("where is the water"))).toEqual([]);
    // Two swapped pairs are embedded; three are refused unembedded (no pair of that many was ever accepted).
    expect(wordsToEmbed(f("How do I make a green desk?"), f("How can I build a red desk?"))).toEqual(["make", "green", "build", "red"]);
    expect(wordsToEmbed(f("How do I make a green wooden desk?"), f("How can I build a red metal desk?"))).toEqual([]);
  });

  test("a synonym from the table pairs without any vector; a word whose vector is missing pairs with nothing", () => {
    const a = extractFacets("Where can I buy a cheap couch?");
    const b = extractFacets("Where can I buy a cheap sofa?");
    expect(substitutionAlignment(a, b, new Map(), synonyms)).toBe(1);
    expect(compareFacets(a, b, { vectors: new Map(), minSimilarity: 0.9, synonyms })).toEqual({ equivalent: true });
    expect(compareFacets(a, b, { vectors: new Map(), minSimilarity: 0.9 })).toMatchObject({ equivalent: false, kind: "content" });
    const make = extractFacets("How do I make an adjustable desk?");
    const build = extractFacets("How can I build an adjustable desk?");
    const v = Float32Array.from([1, 0]);
    for (const vectors of [new Map([["make", v]]), new Map([["build", v]])]) {
      expect(substitutionAlignment(make, build, vectors)).toBe(-1);
      expect(compareFacets(make, build, { vectors, minSimilarity: -0.5 })).toMatchObject({ equivalent: false, kind: "content" });
    }
    expect(
      substitutionAlignment(
        make,
        build,
        new Map([
          ["make", v],
          ["build", v],
        ]),
      ),
    ).toBe(1);
  });

  test("stems meet across inflections and keep different words apart", () => {
    const same = [
      ["time", "times"],
      ["type", "types"],
      ["rule", "rules"],
      ["make", "making", "makes"],
      ["use", "used", "using", "uses"],
      ["run", "running", "runs"],
      ["stop", "stopped"],
      ["code", "coding"],
      ["study", "studies", "studied"],
      ["city", "cities"],
      ["marry", "married"],
      ["box", "boxes"],
      ["class", "classes"],
      ["compute", "computed", "computing"],
      ["play", "plays", "played", "playing"],
      ["tomato", "tomatoes"],
      ["api", "apis"],
    ];
    for (const forms of same) expect(new Set(forms.map(stem)).size).toBe(1);
    const apart = [
      ["paste", "past"],
      ["apply", "app"],
      ["early", "ear"],
      ["notes", "not"],
      ["hoping", "hopping"],
      ["plane", "plan"],
      ["string", "str"],
      ["state", "stats"],
    ];
    for (const [a, b] of apart) expect(stem(a!)).not.toBe(stem(b!));
  });

  test("refuses when the earlier turns or the options differ, even for the same prompt", () => {
    const p = { prompt: "How do I install it?", contextHash: "ctx1", scopeKey: "scope1" };
    expect(verifyEquivalent(p, { ...p })).toEqual({ equivalent: true });
    expect(verifyEquivalent(p, { ...p, contextHash: "ctx2" })).toMatchObject({ equivalent: false, kind: "context" });
    expect(verifyEquivalent(p, { ...p, scopeKey: "scope2" })).toMatchObject({ equivalent: false, kind: "scope" });
  });

  test("facets of a mixed prompt", () => {
    const f = extractFacets("Write it in Python 3.11, return JSON, don't use numpy, and turn off logging after 5 minutes.");
    expect(f.numbers).toEqual(["3.11", "5"]);
    expect(f.negations).toBe(1);
    expect([...f.languages].sort()).toEqual(["numpy", "python"]);
    expect([...f.formats]).toEqual(["json"]);
    expect([...f.units]).toEqual(["min"]);
    // "turn off" reads as "disable" (one form for particle verbs).
    expect(f.directions.get("enable/disable")).toBe("0:1");
  });

  test("Object.prototype's names are words, not numbers or operators", () => {
    for (const word of ["constructor", "valueOf", "toString", "hasOwnProperty", "__proto__"]) {
      const f = extractFacets(`Explain the ${word} of a class in 2 lines`);
      expect(f.numbers).toEqual(["2"]);
      expect(f.operators).toEqual([]);
    }
  });

  // ". ".repeat(150_000) took minutes while the courtesy tail was one pattern (quadratic on the run).
  test("arbitrary text never throws", () => {
    for (const text of [
      "",
      "   ",
      "```\nunclosed",
      "'''",
      "1,2,3,,4..5",
      "C++++##",
      "💥 ∑ ∫ √2 ≠ ≥",
      "-".repeat(1000),
      "a".repeat(100_000),
      ". ".repeat(150_000),
    ]) {
      expect(() => extractFacets(text)).not.toThrow();
    }
  });
});
